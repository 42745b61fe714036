import {
  accountSuspendedMessage,
  type Character,
  characterListQuerySchema,
  cleanJoinCode,
  formatEnUs,
  type ItemInstance,
  inventoryMessages,
  itemInstanceListQuerySchema,
  type LootInstance,
  lootInstanceListQuerySchema,
  type Party,
  partyListQuerySchema,
} from '@haversack/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { withChangeSource } from '../../lib/change-source.js';
import type { UserRow } from '../accounts/accounts.repository.js';
import type { CharactersService } from '../characters/characters.service.js';
import type { InventoryService } from '../inventory/inventory.service.js';
import type { LootService } from '../loot/loot.service.js';
import type { PartiesService } from '../parties/parties.service.js';
import { discordRepository as repo } from './discord.repository.js';
import { INTERACTION_MAX_AGE_S } from './discord-signature.js';

/** Discord's interaction types and response types used here. */
const PING = 1;
const APPLICATION_COMMAND = 2;
const PONG = 1;
const CHANNEL_MESSAGE_WITH_SOURCE = 4;
/** Message flag: only the person who ran the command sees the answer. */
const EPHEMERAL = 64;
/** Discord's limits on one message: embeds, one embed's title and description, and all embeds' text together. */
const MAX_EMBEDS = 10;
const MAX_EMBED_TITLE = 256;
const MAX_EMBED_DESCRIPTION = 4096;
const MAX_EMBEDS_TEXT = 6000;
const HAVERSACK_COLOR = 0xb7791f;
/** Discord's permission bits: Administrator, Manage Channels. */
const ADMINISTRATOR = 1n << 3n;
const MANAGE_CHANNELS = 1n << 4n;

/**
 * Binding sets where Haversack answers in public: a GM may do it only where the server lets them arrange
 * channels, as Discord's own default for the command says (discord-commands.ts).
 */
function mayArrangeChannels(interaction: Interaction): boolean {
  const bits = interaction.member?.permissions;
  if (!bits || !/^\d+$/.test(bits)) return false;
  const permissions = BigInt(bits);
  return (permissions & (ADMINISTRATOR | MANAGE_CHANNELS)) !== 0n;
}

const optionSchema = z.object({ name: z.string(), value: z.union([z.string(), z.number(), z.boolean()]) });
const discordUserSchema = z.object({ id: z.string(), username: z.string().optional() });

/** The part of an interaction (Discord's payload) that the commands read; the rest is ignored. */
export const interactionSchema = z.object({
  /** Discord's id of this interaction (a snowflake), unique to it. */
  id: z.string().min(1).max(32),
  type: z.number().int(),
  guild_id: z.string().optional(),
  channel_id: z.string().optional(),
  /** In a server: the member, with their permissions in this channel (a bit set, as a decimal string). */
  member: z.object({ user: discordUserSchema, permissions: z.string().max(40).optional() }).optional(),
  user: discordUserSchema.optional(),
  data: z.object({ name: z.string(), options: z.array(optionSchema).optional() }).optional(),
});
export type Interaction = z.infer<typeof interactionSchema>;

interface Embed {
  title: string;
  description: string;
  url?: string;
  color: number;
}

export type InteractionResponse =
  | { type: typeof PONG }
  | {
      type: typeof CHANNEL_MESSAGE_WITH_SOURCE;
      data: { content?: string; embeds?: Embed[]; flags?: number; allowed_mentions: { parse: [] } };
    };

/** The answer to an unlinked user where nobody can link: the server has the public key but no sign-in. */
const discordLinkingUnavailable =
  'Haversack cannot link Discord accounts on this server: whoever runs it has not set up Discord sign-in, so its commands cannot be used here yet.';

/** A refusal the person who ran the command reads (only they see it). */
class CommandRefusal extends Error {}

const reply = (
  content: string,
  options: { embeds?: Embed[]; public?: boolean } = {},
): InteractionResponse => ({
  type: CHANNEL_MESSAGE_WITH_SOURCE,
  data: {
    content,
    ...(options.embeds ? { embeds: options.embeds } : {}),
    ...(options.public ? {} : { flags: EPHEMERAL }),
    // Names typed by players never ping anyone.
    allowed_mentions: { parse: [] },
  },
});

const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/** Discord renders markdown: names typed by players are shown as typed. */
const plain = (text: string) => text.replace(/([\\*_`~|>[\]()#-])/g, '\\$1');

interface Deps {
  db: Database;
  parties: PartiesService;
  characters: CharactersService;
  inventory: InventoryService;
  loot: LootService;
  appUrl: string;
  /** Whether players can link their Discord accounts here (Discord sign-in is set up): every command needs it. */
  linkingAvailable: boolean;
  log: FastifyBaseLogger;
  now: () => Date;
}

/**
 * Issue 16 §2: the slash commands. Each one acts as the Haversack user linked to the Discord user who ran
 * it, through the same services and rules as the web app, and every change is marked as coming from
 * Discord (ledger rows and real-time notices).
 */
export class DiscordInteractionsService {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  /**
   * Whether this interaction is new: a signed one stays valid for INTERACTION_MAX_AGE_S either side of its
   * timestamp, so one captured on its way could be sent again (another /give) until then, after a restart
   * or to another process too. Each id is answered once, remembered for twice that age.
   */
  async claim(interactionId: string): Promise<boolean> {
    const forgetBefore = new Date(this.#deps.now().getTime() - 2 * INTERACTION_MAX_AGE_S * 1000);
    return repo.claimInteraction(this.#deps.db, interactionId, forgetBefore);
  }

  async handle(interaction: Interaction): Promise<InteractionResponse> {
    if (interaction.type === PING) return { type: PONG };
    if (interaction.type !== APPLICATION_COMMAND || !interaction.data) {
      return reply('Haversack only answers its slash commands.');
    }
    const { data } = interaction;
    return withChangeSource('discord', async () => {
      try {
        return await this.#run(data.name, interaction);
      } catch (error) {
        if (error instanceof CommandRefusal) return reply(error.message);
        if (error instanceof AppError) return reply(error.details?.[0]?.message ?? error.message);
        this.#deps.log.error({ err: error, command: data.name }, 'discord command failed');
        return reply('Something went wrong on Haversack. Please try again.');
      }
    });
  }

  async #run(command: string, interaction: Interaction): Promise<InteractionResponse> {
    const user = await this.#linkedUser(interaction);
    switch (command) {
      case 'bind':
        return this.#bind(user, interaction);
      case 'unbind':
        return this.#unbind(user, interaction);
      case 'inventory':
        return this.#inventory(user, await this.#boundParty(user, interaction));
      case 'give':
        return this.#give(user, await this.#boundParty(user, interaction), interaction);
      case 'loot':
        return this.#loot(user, await this.#boundParty(user, interaction));
      default:
        return reply(`Haversack has no /${plain(command)} command.`);
    }
  }

  async #linkedUser(interaction: Interaction): Promise<UserRow> {
    const discordUser = interaction.member?.user ?? interaction.user;
    const linked = discordUser ? await repo.userOfDiscordId(this.#deps.db, discordUser.id) : undefined;
    if (!linked) {
      throw new CommandRefusal(
        this.#deps.linkingAvailable
          ? `Link your Discord account to Haversack first: open ${this.#deps.appUrl}/profile and choose "Link Discord".`
          : // No "Link Discord" button to point at: the server has no Discord sign-in.
            discordLinkingUnavailable,
      );
    }
    if (linked.user.suspendedAt) throw new CommandRefusal(accountSuspendedMessage);
    return linked.user;
  }

  #channel(interaction: Interaction): { guildId: string; channelId: string } {
    if (!interaction.guild_id || !interaction.channel_id) {
      throw new CommandRefusal('Use this command in a channel of a Discord server, not in a direct message.');
    }
    return { guildId: interaction.guild_id, channelId: interaction.channel_id };
  }

  /** The party bound to the channel, which the user must belong to. */
  async #boundParty(user: UserRow, interaction: Interaction): Promise<Party> {
    const { channelId } = this.#channel(interaction);
    const binding = await repo.bindingOfChannel(this.#deps.db, channelId);
    if (!binding) {
      throw new CommandRefusal(
        "This channel is not bound to a party. The GM can bind it with /bind and the party's join code.",
      );
    }
    const membership = await this.#deps.parties.membership(this.#deps.db, binding.partyId, user.id);
    if (!membership) throw new CommandRefusal('You are not a member of the party bound to this channel.');
    return this.#deps.parties.get(user.id, binding.partyId);
  }

  async #bind(user: UserRow, interaction: Interaction): Promise<InteractionResponse> {
    const { guildId, channelId } = this.#channel(interaction);
    const wanted = String(option(interaction, 'party') ?? '').trim();
    if (!wanted) throw new CommandRefusal('Say which party: /bind party:<join code or name>.');
    if (!mayArrangeChannels(interaction)) {
      throw new CommandRefusal('You need the Manage Channels permission in this server to bind a channel.');
    }
    const mine = await this.#deps.parties.list(user.id, partyListQuerySchema.parse({ per_page: 100 }));
    const matches = mine.data.filter(
      (party) =>
        // A code is compared as the join form cleans it: "abcd-efgh" is ABCDEFGH.
        (party.join_code !== null && party.join_code === cleanJoinCode(wanted)) ||
        sameName(party.name, wanted),
    );
    const run = matches.filter((party) => party.is_gm);
    if (run.length === 0) {
      throw new CommandRefusal(
        matches.length > 0
          ? `Only the GM of ${plain(matches[0]?.name ?? wanted)} can bind a channel to it.`
          : `You have no party called or with the join code "${plain(wanted)}".`,
      );
    }
    if (run.length > 1) {
      throw new CommandRefusal(
        `Several of your parties are called "${plain(wanted)}": use the join code instead.`,
      );
    }
    const [party] = run;
    if (!party) throw new CommandRefusal(`You have no party called "${plain(wanted)}".`);
    const current = await repo.bindingOfChannel(this.#deps.db, channelId);
    // A channel bound by one GM is not taken over by another: only the GM of its party may move it.
    if (current && current.partyId !== party.id) {
      const role = (await this.#deps.parties.membership(this.#deps.db, current.partyId, user.id))?.role;
      if (role !== 'gm') {
        throw new CommandRefusal(
          "This channel is bound to another party. Only that party's GM can unbind it or bind it elsewhere.",
        );
      }
    }
    await repo.bindChannel(this.#deps.db, { guildId, channelId, partyId: party.id, boundBy: user.id });
    return reply(
      `This channel is now bound to **${plain(party.name)}**. Members who linked Discord to Haversack can use /inventory, /give and /loot here.`,
      { public: true },
    );
  }

  async #unbind(user: UserRow, interaction: Interaction): Promise<InteractionResponse> {
    const { channelId } = this.#channel(interaction);
    const current = await repo.bindingOfChannel(this.#deps.db, channelId);
    if (!current) throw new CommandRefusal('This channel is not bound to a party.');
    const role = (await this.#deps.parties.membership(this.#deps.db, current.partyId, user.id))?.role;
    if (role !== 'gm') throw new CommandRefusal("Only the GM of this channel's party can unbind it.");
    await repo.unbindChannel(this.#deps.db, channelId);
    return reply('This channel is no longer bound to a party.', { public: true });
  }

  async #myCharacters(user: UserRow, party: Party): Promise<Character[]> {
    const characters = await this.#partyCharacters(user, party);
    const mine = characters.filter((character) => character.is_owner);
    if (mine.length === 0) throw new CommandRefusal(`You have no character in ${plain(party.name)}.`);
    return mine;
  }

  async #partyCharacters(user: UserRow, party: Party): Promise<Character[]> {
    const query = characterListQuerySchema.parse({ party_id: party.id, per_page: 100 });
    return (await this.#deps.characters.list(user.id, query)).data;
  }

  async #itemsOf(user: UserRow, character: Character): Promise<ItemInstance[]> {
    const query = itemInstanceListQuerySchema.parse({ character_id: character.id, per_page: 500 });
    return (await this.#deps.inventory.listItemInstances(user.id, query)).data;
  }

  async #inventory(user: UserRow, party: Party): Promise<InteractionResponse> {
    const characters = (await this.#myCharacters(user, party)).slice(0, MAX_EMBEDS);
    const lists = await Promise.all(
      characters.map(async (character) => ({
        title: character.name,
        url: `${this.#deps.appUrl}/characters/${character.id}`,
        items: await this.#itemsOf(user, character),
        empty: 'No items.',
      })),
    );
    return reply(`Your inventory in **${plain(party.name)}**`, { embeds: itemEmbeds(lists) });
  }

  async #give(user: UserRow, party: Party, interaction: Interaction): Promise<InteractionResponse> {
    const itemName = String(option(interaction, 'item') ?? '').trim();
    const quantity = Number(option(interaction, 'quantity'));
    const recipientName = String(option(interaction, 'character') ?? '').trim();
    const giverName = String(option(interaction, 'from') ?? '').trim();
    if (!itemName || !recipientName)
      throw new CommandRefusal('Say what to give and to whom: /give item quantity character.');
    if (!Number.isInteger(quantity) || quantity < 1)
      throw new CommandRefusal('The quantity must be a whole number of 1 or more.');

    const recipients = (await this.#partyCharacters(user, party)).filter((c) =>
      sameName(c.name, recipientName),
    );
    if (recipients.length === 0) {
      throw new CommandRefusal(`No character called "${plain(recipientName)}" in ${plain(party.name)}.`);
    }
    if (recipients.length > 1) {
      throw new CommandRefusal(
        `Several characters are called "${plain(recipientName)}": give it from the web app.`,
      );
    }
    const [recipient] = recipients;
    if (!recipient) throw new CommandRefusal(inventoryMessages.giveRecipientRequired);
    const givers = await this.#givers(user, party, recipient, giverName);
    const named = giverName ? givers[0] : undefined;
    // Who the stacks were looked for among, in the refusals: the character named, or my others.
    const among = named
      ? plain(named.name)
      : recipient.is_owner
        ? `Your characters other than ${plain(recipient.name)}`
        : 'Your characters';

    // The stacks of that name among the giving characters, the first with enough in it chosen.
    const stacks: { character: Character; item: ItemInstance }[] = [];
    for (const character of givers) {
      for (const item of await this.#itemsOf(user, character)) {
        if (sameName(item.name, itemName) || sameName(item.displayName, itemName))
          stacks.push({ character, item });
      }
    }
    if (stacks.length === 0) {
      throw new CommandRefusal(
        named
          ? `${among} has no "${plain(itemName)}".`
          : `None of your characters in ${plain(party.name)}${recipient.is_owner ? ` other than ${plain(recipient.name)}` : ''} has "${plain(itemName)}".`,
      );
    }
    const chosen = stacks.find((stack) => stack.item.quantity >= quantity);
    if (!chosen) throw new CommandRefusal(tooFewInOneStack(stacks, quantity, itemName, among, !!named));
    // The web's own use case: permissions, capacity, monthly action limits and the ledger all apply.
    const result = await this.#deps.inventory.give({ id: user.id, username: user.username }, chosen.item.id, {
      character_id: recipient.id,
      quantity,
    });
    return reply(
      `**${plain(chosen.character.name)}** gave ${formatEnUs(result.moved)} × ${plain(chosen.item.name)} to **${plain(recipient.name)}**.`,
      { public: true },
    );
  }

  /**
   * The characters a /give may take from: mine in the party other than the recipient (it cannot give to
   * itself), or the one `from` names.
   */
  async #givers(user: UserRow, party: Party, recipient: Character, from: string): Promise<Character[]> {
    const mine = await this.#myCharacters(user, party);
    if (!from) {
      const others = mine.filter((character) => character.id !== recipient.id);
      if (others.length === 0) throw new CommandRefusal(inventoryMessages.giveToOtherCharacter);
      return others;
    }
    const named = mine.filter((character) => sameName(character.name, from));
    if (named.length === 0) {
      throw new CommandRefusal(`You have no character called "${plain(from)}" in ${plain(party.name)}.`);
    }
    if (named.length > 1) {
      throw new CommandRefusal(
        `Several of your characters are called "${plain(from)}": give it from the web app.`,
      );
    }
    if (named[0]?.id === recipient.id) throw new CommandRefusal(inventoryMessages.giveToOtherCharacter);
    return named;
  }

  async #loot(user: UserRow, party: Party): Promise<InteractionResponse> {
    // Hidden loot never reaches a channel, not even when the GM asks: everyone in the channel may read it.
    const query = lootInstanceListQuerySchema.parse({ is_revealed: 'true', per_page: MAX_EMBEDS });
    const { data } = await this.#deps.loot.listForParty(user.id, party.id, query);
    // The list sends no stacks (a party may hold hundreds of piles): the few shown are read whole, and one
    // deleted or hidden meanwhile is left out.
    const revealed = (
      await Promise.all(
        data
          .filter((loot) => loot.is_revealed)
          .map((loot) => this.#deps.loot.getInstance(user.id, loot.id).catch(() => null)),
      )
    ).filter((loot): loot is LootInstance => loot?.is_revealed === true);
    if (revealed.length === 0) return reply(`No revealed loot in **${plain(party.name)}**.`);
    const embeds = itemEmbeds(
      revealed.map((loot) => ({
        title: loot.name,
        url: `${this.#deps.appUrl}/loot/instances/${loot.id}`,
        items: loot.container.item_instances,
        empty: 'Nothing left.',
      })),
    );
    return reply(`Revealed loot in **${plain(party.name)}**`, { embeds });
  }
}

function option(interaction: Interaction, name: string): string | number | boolean | undefined {
  return interaction.data?.options?.find((o) => o.name === name)?.value;
}

/**
 * Why no stack can give `quantity` (a give moves from one stack), in the player's terms and with what they
 * can do instead. Merging is offered only where it would work: stacks in one container (never across
 * characters or containers) that together hold enough, of an item whose stacks may hold that many.
 */
function tooFewInOneStack(
  stacks: { character: Character; item: ItemInstance }[],
  quantity: number,
  itemName: string,
  among: string,
  oneCharacter: boolean,
): string {
  const name = plain(stacks[0]?.item.name ?? itemName);
  const held = stacks.reduce((sum, stack) => sum + stack.item.quantity, 0);
  if (held < quantity) return `${among} ${oneCharacter ? 'has' : 'have'} only ${formatEnUs(held)} × ${name}.`;
  const largest = Math.max(...stacks.map((stack) => stack.item.quantity));
  const byContainer = new Map<string, { character: Character; total: number }>();
  for (const { character, item } of stacks) {
    const sizeAllows = item.item_template.stack_size === 0 || item.item_template.stack_size >= quantity;
    if (!sizeAllows) continue;
    const entry = byContainer.get(item.container_id) ?? { character, total: 0 };
    entry.total += item.quantity;
    byContainer.set(item.container_id, entry);
  }
  const mergeable = [...byContainer.values()].find((entry) => entry.total >= quantity);
  const advice = mergeable
    ? `, or merge ${plain(mergeable.character.name)}'s stacks in the web app first`
    : '';
  return `No single stack holds ${formatEnUs(quantity)} × ${name} (the largest holds ${formatEnUs(largest)}): give up to ${formatEnUs(largest)} at a time${advice}.`;
}

interface ItemList {
  title: string;
  url: string;
  items: ItemInstance[];
  /** The description of a list without items. */
  empty: string;
}

/**
 * One embed per list, within Discord's limits on the whole message (a message past them is refused, and the
 * person sees "The application did not respond"): the titles are cut to 256 characters, and each
 * description gets an equal share of the 6,000 characters the titles leave.
 */
function itemEmbeds(lists: ItemList[]): Embed[] {
  const titles = lists.map((list) => cut(list.title, MAX_EMBED_TITLE));
  const titlesLength = titles.reduce((sum, title) => sum + title.length, 0);
  const share = Math.min(
    MAX_EMBED_DESCRIPTION,
    Math.floor((MAX_EMBEDS_TEXT - titlesLength) / Math.max(1, lists.length)),
  );
  return lists.map((list, index) => ({
    title: titles[index] ?? '',
    url: list.url,
    description: cut(itemLines(list.items, share) || list.empty, share),
    color: HAVERSACK_COLOR,
  }));
}

/** The text, cut to `limit` UTF-16 units (Discord counts characters, never more than these) with an ellipsis. */
function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = text.slice(0, limit - 1);
  // Never half a surrogate pair.
  return `${/[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head}…`;
}

/** One line per stack, as many as `limit` characters hold, then how many more there are. */
function itemLines(items: ItemInstance[], limit: number): string {
  const lines: string[] = [];
  let length = 0;
  for (const [index, item] of items.entries()) {
    const line = `• ${plain(item.name)} × ${formatEnUs(item.quantity)}`;
    // Room is kept for the closing "…and N more" line.
    if (length + line.length + 1 + 24 > limit) {
      lines.push(`…and ${items.length - index} more`);
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}

/** Discord's application command option types used here. */
const STRING = 3;
const INTEGER = 4;

/**
 * The slash commands Haversack answers (issue 16 §2), as Discord's API takes them
 * (PUT /applications/{id}/commands). `contexts: [0]` keeps them to servers: they act on a bound channel.
 */
export const discordCommands = [
  {
    name: 'bind',
    description: 'Bind this channel to a party you run as GM',
    contexts: [0],
    // Shown to members who may arrange channels (Manage Channels); server admins can widen it.
    default_member_permissions: '16',
    options: [
      { type: STRING, name: 'party', description: 'The join code or the name of the party', required: true },
    ],
  },
  {
    name: 'unbind',
    description: 'Unbind this channel from its party (GM of that party only)',
    contexts: [0],
  },
  {
    name: 'inventory',
    description: "Show your characters' items in this channel's party (only you see it)",
    contexts: [0],
  },
  {
    name: 'give',
    description: 'Give an item of your character to another character of the party',
    contexts: [0],
    options: [
      { type: STRING, name: 'item', description: 'The name of the item', required: true },
      { type: INTEGER, name: 'quantity', description: 'How many', required: true, min_value: 1 },
      { type: STRING, name: 'character', description: 'The character who receives it', required: true },
      // Optional, so after the required ones (Discord's rule): without it, any other character of yours.
      {
        type: STRING,
        name: 'from',
        description: 'Your character who gives it (any other of yours holding enough when left out)',
        required: false,
      },
    ],
  },
  {
    name: 'loot',
    description: "Show the revealed loot of this channel's party",
    contexts: [0],
  },
] as const;

/**
 * Registers (replaces) the global commands of the application with Discord: `npm run discord:register`.
 * `baseUrl` is https://discord.com unless overridden (tests point it at a local stand-in).
 */
export async function registerDiscordCommands(options: {
  baseUrl: string;
  applicationId: string;
  botToken: string;
}): Promise<{ registered: string[] }> {
  const url = `${options.baseUrl}/api/v10/applications/${encodeURIComponent(options.applicationId)}/commands`;
  const response = await fetch(url, {
    method: 'PUT',
    headers: { authorization: `Bot ${options.botToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(discordCommands),
    signal: AbortSignal.timeout(15_000),
  });
  if (!response.ok) {
    const detail = await response.text().catch(() => '');
    throw new Error(`Discord refused the commands (HTTP ${response.status}): ${detail.slice(0, 300)}`);
  }
  const body: unknown = await response.json();
  const registered = Array.isArray(body)
    ? body.flatMap((command: unknown) =>
        typeof command === 'object' &&
        command !== null &&
        'name' in command &&
        typeof command.name === 'string'
          ? [command.name]
          : [],
      )
    : [];
  return { registered };
}

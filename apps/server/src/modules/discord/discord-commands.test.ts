import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../../test/fake-discord.js';
import { discordCommands, registerDiscordCommands } from './discord-commands.js';

const run = promisify(execFile);
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let discord: FakeDiscord;
beforeAll(async () => {
  discord = await new FakeDiscord().start();
});
afterAll(async () => discord.stop());

describe('registering the slash commands with Discord', () => {
  it('PUTs every command to the application with the bot token', async () => {
    const result = await registerDiscordCommands({
      baseUrl: discord.baseUrl,
      applicationId: 'app-1',
      botToken: discord.botToken,
    });
    expect(result.registered).toEqual(['bind', 'unbind', 'inventory', 'give', 'loot']);
    const call = discord.commandCalls.at(-1);
    expect(call).toMatchObject({ applicationId: 'app-1', authorization: `Bot ${discord.botToken}` });
    expect(call?.body).toEqual(JSON.parse(JSON.stringify(discordCommands)));
  });

  it('offers /give an optional giving character after its required options', () => {
    const give = discordCommands.find((command) => command.name === 'give');
    const options = give && 'options' in give ? give.options : [];
    expect(options.map((o) => [o.name, o.required])).toEqual([
      ['item', true],
      ['quantity', true],
      ['character', true],
      ['from', false],
    ]);
  });

  it('says what Discord answered when it refuses', async () => {
    await expect(
      registerDiscordCommands({ baseUrl: discord.baseUrl, applicationId: 'app-1', botToken: 'wrong' }),
    ).rejects.toThrow('Discord refused the commands (HTTP 401)');
  });

  it('runs as npm run discord:register against the configured base URL', async () => {
    const env = {
      ...process.env,
      DISCORD_CLIENT_ID: 'app-cli',
      DISCORD_BOT_TOKEN: discord.botToken,
      DISCORD_API_BASE_URL: discord.baseUrl,
    };
    const { stdout } = await run('npm', ['run', '--silent', 'discord:register'], { cwd: serverDir, env });
    expect(stdout).toContain('Registered 5 commands with Discord: /bind /unbind /inventory /give /loot');
    expect(discord.commandCalls.at(-1)?.applicationId).toBe('app-cli');

    const missing = await run('npm', ['run', '--silent', 'discord:register'], {
      cwd: serverDir,
      env: { ...env, DISCORD_BOT_TOKEN: '' },
    }).catch((error: { stderr: string; code: number }) => error);
    expect(missing).toMatchObject({ code: 1 });
    expect('stderr' in missing ? missing.stderr : '').toContain(
      'Set DISCORD_CLIENT_ID (the application id) and DISCORD_BOT_TOKEN',
    );
  }, 60_000);
});

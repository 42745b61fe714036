import { ConfigError, loadConfig } from '../config.js';
import { registerDiscordCommands } from '../modules/discord/discord-commands.js';

/**
 * `npm run discord:register -w apps/server`: registers (replaces) Haversack's slash commands with Discord,
 * as the application whose id is DISCORD_CLIENT_ID, with DISCORD_BOT_TOKEN. Run it once after adding the
 * app and again whenever the commands change.
 */
async function main(): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, { discordClientIdAlone: true });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  if (!config.discordClientId || !config.discordBotToken) {
    console.error(
      'Set DISCORD_CLIENT_ID (the application id) and DISCORD_BOT_TOKEN to register the commands with Discord.',
    );
    return 1;
  }
  try {
    const { registered } = await registerDiscordCommands({
      baseUrl: config.discordApiBaseUrl,
      applicationId: config.discordClientId,
      botToken: config.discordBotToken,
    });
    console.log(
      `Registered ${registered.length} commands with Discord: ${registered.map((n) => `/${n}`).join(' ')}`,
    );
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

process.exitCode = await main();

// Development mode: the API with tsx watch on :3000 and Vite with hot reload on :5173 (proxying the API).
import concurrently from 'concurrently';

const { result } = concurrently(
  [
    {
      name: 'api',
      command: 'npm run dev -w apps/server',
      prefixColor: 'magenta',
      // Development runs the demo billing (free upgrades, with the app's notice) unless told otherwise.
      env: { BILLING_PROVIDER: process.env.BILLING_PROVIDER ?? 'local' },
    },
    { name: 'web', command: 'npm run dev -w apps/web', prefixColor: 'cyan' },
  ],
  { killOthersOn: ['failure'], prefix: 'name' },
);
result.catch(() => process.exit(1));

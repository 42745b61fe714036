// Development mode: the API with tsx watch on :3000 and Vite with hot reload on :5173 (proxying the API).
import concurrently from 'concurrently';

const { result } = concurrently(
  [
    { name: 'api', command: 'npm run dev -w apps/server', prefixColor: 'magenta' },
    { name: 'web', command: 'npm run dev -w apps/web', prefixColor: 'cyan' },
  ],
  { killOthersOn: ['failure'], prefix: 'name' },
);
result.catch(() => process.exit(1));

// The baseline of bench/cable-broadcast.bench.mjs: a bare `ws` server in its own process that speaks
// the same sliver of Action Cable as the bench's clients (welcome, subscribe -> confirm) and, on
// `POST /broadcast?id=<uuid>`, sends one frame of the same shape and size as Haversack's item_added to
// every socket: serialised once, no database, no authorisation. Prints its port on stdout when ready.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

const sockets = new Set();
const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (request.method === 'POST' && url.pathname === '/broadcast') {
    const id = url.searchParams.get('id') ?? '';
    const identifier = url.searchParams.get('identifier') ?? '';
    request.resume();
    response.end('{}');
    const frame = Buffer.from(
      JSON.stringify({
        identifier,
        message: {
          action: 'item_added',
          actor: { id: '00000000-0000-4000-8000-000000000000', name: 'bench_gm' },
          summary: 'bench_gm added 1 × Rope, hempen (50 feet) to Stash',
          ids: { item_instance_id: id, container_id: '00000000-0000-4000-8000-000000000001' },
          party_id: '00000000-0000-4000-8000-000000000002',
          source: 'web',
        },
      }),
    );
    for (const socket of sockets) socket.send(frame, { binary: false });
    return;
  }
  response.statusCode = 404;
  response.end();
});
const wss = new WebSocketServer({
  server,
  perMessageDeflate: false,
  handleProtocols: (protocols) => (protocols.has('actioncable-v1-json') ? 'actioncable-v1-json' : false),
});
wss.on('connection', (socket) => {
  socket.send(JSON.stringify({ type: 'welcome' }));
  socket.on('message', (data) => {
    const command = JSON.parse(data.toString());
    if (command.command === 'subscribe') {
      sockets.add(socket);
      socket.send(JSON.stringify({ identifier: command.identifier, type: 'confirm_subscription' }));
    }
  });
  socket.on('close', () => sockets.delete(socket));
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.on('SIGTERM', () => process.exit(0));

/** Stands in for the browser's WebSocket under the official client, so the test can play the server. */
export class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static opened: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  protocol = 'actioncable-v1-json';
  sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close() {
    if (this.readyState === FakeSocket.CLOSED) return;
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.();
  }
  /** The server's side: accept, then welcome and confirm every subscription asked for. */
  accept() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
    this.receive({ type: 'welcome' });
    for (const command of this.sent)
      if (command.command === 'subscribe')
        this.receive({ type: 'confirm_subscription', identifier: command.identifier });
  }
  receive(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  /** What the server does when a session ends or its token expires. */
  refuse(reconnect: boolean, sessionEnd?: string) {
    this.receive({
      type: 'disconnect',
      reason: 'unauthorized',
      reconnect,
      ...(sessionEnd ? { session_end: sessionEnd } : {}),
    });
    this.close();
  }
}

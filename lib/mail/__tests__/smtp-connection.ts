import { connect, type Socket } from "node:net";

/** A bare line-by-line SMTP client for tests that must stop between commands (or in the middle of one). */
export class SMTPConnection {
  private socket!: Socket;
  private buffer = "";
  private waiter: ((line: string) => void) | null = null;
  private closed!: Promise<void>;

  /** `localAddress` (127.0.0.x) lets one test connect from several client addresses. */
  constructor(
    private port: number,
    private localAddress?: string,
  ) {}

  /** Connects and resolves with the greeting (220, or 421 when the server refuses the connection). */
  async open(): Promise<string> {
    this.socket = connect({ port: this.port, host: "127.0.0.1", localAddress: this.localAddress });
    this.closed = new Promise((resolve) => this.socket.on("close", () => resolve()));
    this.socket.on("error", () => {});
    this.socket.on("data", (d) => {
      this.buffer += d.toString("latin1");
      this.flush();
    });
    return this.reply();
  }

  /** Sends a command and resolves with the final line of the reply. */
  cmd(line: string): Promise<string> {
    const reply = this.reply();
    this.socket.write(`${line}\r\n`);
    return reply;
  }

  /** Sends bytes as they are, without waiting for a reply. */
  write(raw: string) {
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(raw);
  }

  /** The final line of the next reply. */
  reply(): Promise<string> {
    return new Promise((resolve) => {
      this.waiter = resolve;
      this.flush();
    });
  }

  /** Resolves when the server has closed the connection. */
  whenClosed(): Promise<void> {
    return this.closed;
  }

  get isClosed() {
    return this.socket.destroyed;
  }

  private flush() {
    // A reply ends with a line whose 4th character is a space (multi-line replies use '-').
    const m = this.buffer.match(/^(?:\d{3}-[^\n]*\n)*(\d{3} [^\n]*)\n/);
    if (!m || !this.waiter) return;
    this.buffer = this.buffer.slice(m[0].length);
    const w = this.waiter;
    this.waiter = null;
    w(m[1].trim());
  }

  close(): Promise<void> {
    if (this.socket.destroyed) return Promise.resolve();
    this.socket.end("QUIT\r\n");
    return this.closed;
  }
}

import { connect, type Socket } from "node:net";

/** A bare line-by-line SMTP client for tests that must stop between commands. */
export class SMTPConnection {
  private socket!: Socket;
  private buffer = "";
  private waiter: ((line: string) => void) | null = null;

  constructor(private port: number) {}

  async open(): Promise<string> {
    this.socket = connect(this.port, "127.0.0.1");
    this.socket.on("data", (d) => {
      this.buffer += d.toString("latin1");
      this.flush();
    });
    return this.next();
  }

  /** Sends a command and resolves with the final line of the reply. */
  cmd(line: string): Promise<string> {
    const reply = this.next();
    this.socket.write(`${line}\r\n`);
    return reply;
  }

  private next(): Promise<string> {
    return new Promise((resolve) => {
      this.waiter = resolve;
      this.flush();
    });
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
    return new Promise((resolve) => {
      this.socket.end("QUIT\r\n");
      this.socket.on("close", () => resolve());
    });
  }
}

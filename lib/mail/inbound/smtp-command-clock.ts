import type { Socket } from "node:net";

/**
 * The command timeout of one SMTP connection. smtp-server's idle timeout (socketTimeout) only measures silence, so a
 * client that trickles a byte every few seconds never trips it and keeps its connection slot for as long as it likes.
 * This clock runs from the first byte of a command line to its end of line, and across a whole DATA transfer (where
 * line ends do not count: the transfer ends when the message stream does), and calls `expire` once when either takes
 * longer than `ms`. Time spent waiting on us (storing a message) is not counted: the clock stops at the end of the
 * transfer and starts again only with the client's next byte.
 */
export class CommandClock {
  private socket: Socket | null = null;
  private timer: NodeJS.Timeout | null = null;
  private inTransfer = false;
  private stopped = false;

  constructor(
    private readonly ms: number,
    private readonly expire: () => void,
  ) {}

  /**
   * Counts the bytes of `socket`: the accepted one, then the TLS one after STARTTLS (the bytes under it are
   * ciphertext, where a line end means nothing). The socket must already be piped to smtp-server's parser: a 'data'
   * listener on a paused socket would start it flowing and take bytes the parser never sees.
   */
  watch(socket: Socket) {
    if (this.stopped) return;
    this.socket?.off("data", this.onBytes);
    this.clear();
    this.socket = socket;
    socket.on("data", this.onBytes);
  }

  /** The message of a DATA command is arriving: the whole transfer must finish within `ms`. */
  beginTransfer() {
    this.inTransfer = true;
    this.arm();
  }

  endTransfer() {
    this.inTransfer = false;
    this.clear();
  }

  stop() {
    this.stopped = true;
    this.clear();
    this.socket?.off("data", this.onBytes);
    this.socket = null;
  }

  private onBytes = (chunk: Buffer) => {
    if (this.inTransfer) return;
    const lastLineEnd = chunk.lastIndexOf(0x0a);
    if (lastLineEnd === -1) {
      if (!this.timer) this.arm();
      return;
    }
    // A command ended in this chunk; bytes after its line end start the next one, which gets its own `ms`.
    this.clear();
    if (lastLineEnd < chunk.length - 1) this.arm();
  };

  private arm() {
    this.clear();
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.stopped) return;
      this.stop();
      this.expire();
    }, this.ms);
    this.timer.unref();
  }

  private clear() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

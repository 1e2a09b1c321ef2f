// A table's socket kept honest: a process that froze (or a network path that died) leaves
// the socket open but silent, and the browser would wait on it for ever. So the page pings
// every BEAT_MS and counts any frame as a sign of life; after SILENCE_MS without one it
// gives the socket up and reconnects at once, through the proxy, to whichever process holds
// the table now. The server answers every ping with a pong no longer than the ping.
export const BEAT_MS = 2500;
export const SILENCE_MS = 6000;

export class Heartbeat {
  // ws: the socket watched; onSilent: called once when it went silent for too long
  constructor(ws, onSilent, now = () => Date.now()) {
    this.ws = ws;
    this.onSilent = onSilent;
    this.now = now;
    this.heard = now();
    this.timer = setInterval(() => this.beat(), BEAT_MS / 2);
  }

  // any frame from the server: the process on the other end is alive
  heardFrom() { this.heard = this.now(); }

  // a socket still opening counts too: through the proxy, one sent to a frozen process
  // would wait for its answer far longer than a player should
  beat() {
    if (this.ws.readyState > WebSocket.OPEN) { this.stop(); return; }  // closing: onclose follows
    if (this.now() - this.heard > SILENCE_MS) {
      this.stop();
      this.onSilent();
      return;
    }
    if (this.ws.readyState === WebSocket.OPEN && this.now() - (this.pinged || 0) >= BEAT_MS) {
      this.pinged = this.now();
      try { this.ws.send('{"type":"ping"}'); } catch { /* closing: onclose follows */ }
    }
  }

  stop() { clearInterval(this.timer); }
}

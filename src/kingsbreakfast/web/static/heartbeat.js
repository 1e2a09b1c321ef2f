// A table's socket kept honest: a process that froze (or a network path that died) leaves
// the socket open but silent, and the browser would wait on it for ever. So the page pings
// once the socket has been quiet for BEAT_MS and counts any frame as a sign of life; a ping
// left unanswered for ANSWER_MS (or a socket still opening after SILENCE_MS) gives the
// socket up, and the page reconnects at once, through the proxy, to whichever process holds
// the table now. The server answers every ping with a pong no longer than the ping. Only an
// unanswered ping counts, never a long quiet alone: a tab in the background, whose timers
// the browser slows to one a minute, is not made to reconnect for nothing.
export const BEAT_MS = 2500;
export const ANSWER_MS = 3500;
export const SILENCE_MS = BEAT_MS + ANSWER_MS;

export class Heartbeat {
  // ws: the socket watched; onSilent: called once when it went silent for too long
  constructor(ws, onSilent, now = () => Date.now()) {
    this.ws = ws;
    this.onSilent = onSilent;
    this.now = now;
    this.opened = now();
    this.heard = this.opened;
    this.asked = null;      // when the ping still unanswered was sent, or null
    this.timer = setInterval(() => this.beat(), BEAT_MS / 2);
  }

  // any frame from the server: the process on the other end is alive
  heardFrom() { this.heard = this.now(); this.asked = null; }

  beat() {
    const ws = this.ws;
    const now = this.now();
    if (ws.readyState > WebSocket.OPEN) { this.stop(); return; }  // closing: onclose follows
    // a socket still opening counts too: through the proxy, one sent to a frozen process
    // would wait for its answer far longer than a player should
    const silent = ws.readyState === WebSocket.CONNECTING
      ? now - this.opened > SILENCE_MS
      : this.asked !== null && now - this.asked > ANSWER_MS;
    if (silent) {
      this.stop();
      this.onSilent();
      return;
    }
    if (ws.readyState === WebSocket.OPEN && this.asked === null && now - this.heard >= BEAT_MS) {
      this.asked = now;
      try { ws.send('{"type":"ping"}'); } catch { /* closing: onclose follows */ }
    }
  }

  stop() { clearInterval(this.timer); }
}

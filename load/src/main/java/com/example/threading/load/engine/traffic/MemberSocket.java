package com.example.threading.load.engine.traffic;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;

/**
 * One WebSocket of a {@link SocketMember}: hands Jetty's callbacks to its member with the time each message was read, and
 * reports its end once, however it ends (a close, an error, a failed connect). Public, as Jetty binds a listener's methods
 * through a public lookup; made only by {@link SocketMember}.
 *
 * <p>Thread-safety: Jetty calls it on its threads, one message after the other (auto-demanding); the end is claimed by
 * one caller (an atomic flag), and the session and the server's last word are volatile, read by the thread that closes
 * it or reports its end.
 */
public final class MemberSocket implements Session.Listener.AutoDemanding {

    private final SocketMember member;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile Session session;
    /** The type of the server's final message ({@code reconnect}, {@code closing}, ...), once one came. */
    private volatile String lastWord;
    private volatile long retryAfterMs;

    MemberSocket(SocketMember member) {
        this.member = member;
    }

    @Override
    public void onWebSocketOpen(Session opened) {
        session = opened;
        member.opened(this);
    }

    @Override
    public void onWebSocketText(String text) {
        member.message(this, text, System.nanoTime());
    }

    @Override
    public void onWebSocketClose(int code, String reason) {
        end(lastWord != null ? lastWord : "close " + code);
    }

    @Override
    public void onWebSocketError(Throwable cause) {
        end(lastWord != null ? lastWord : "error " + cause.getClass().getSimpleName());
    }

    /** The connect failed before a socket opened. */
    void failedToConnect() {
        end("connect failed");
    }

    /** The server's final message of type {@code type}: the close that follows is counted under it. */
    void lastWord(String type, long retryAfterMs) {
        this.retryAfterMs = retryAfterMs;
        this.lastWord = type;
    }

    /** How long the server asked to wait before the next socket (a {@code closing}'s {@code retryAfterSeconds}), else 0. */
    long retryAfterMs() {
        return retryAfterMs;
    }

    /** Whether the upgrade succeeded (a socket that never opened ends as a failed connect). */
    boolean wasOpened() {
        return session != null;
    }

    /** Sends {@code text}, or fails {@code callback} when the socket is not open (yet, or any more). */
    void send(String text, Callback callback) {
        Session open = session;
        if (open == null || !open.isOpen()) {
            callback.fail(new IOException("no open socket"));
            return;
        }
        open.sendText(text, callback);
    }

    /** Closes the socket normally (the drain is over); its end follows on Jetty's thread. */
    void close() {
        Session open = session;
        if (open != null) {
            open.close(StatusCode.NORMAL, "drained", Callback.NOOP);
        }
    }

    private void end(String kind) {
        if (ended.compareAndSet(false, true)) {
            member.ended(this, kind);
        }
    }
}

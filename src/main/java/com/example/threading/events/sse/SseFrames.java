package com.example.threading.events.sse;

import com.example.threading.events.history.FollowedCursors;
import java.nio.charset.StandardCharsets;

/**
 * The text of a Server-Sent Events stream (WHATWG HTML, "Server-sent events"): an event is {@code id:}, an optional
 * {@code event:} type and one {@code data:} line of JSON (the application's ObjectMapper writes none with a line break),
 * ended by a blank line; a comment line keeps an idle stream alive; {@code retry:} sets the client's reconnect delay.
 *
 * <p>The {@code id:} of every event is the stream's whole position
 * ({@link com.example.threading.events.history.FollowedCursors#position}), every topic's cursor with its epoch in the
 * order the stream asked for them: {@code room-1:42:mi3b2k0c-1} or {@code a:4:E1,b:7:E2}. The browser sends it back as
 * {@code Last-Event-ID} on reconnecting, so a stream of several topics resumes on each where it was (a topic
 * without a cursor yet is written alone, {@code c}: its next event). Topic names and epochs hold no {@code ,} or
 * {@code :}, so the id parses with the cursor rules of {@link com.example.threading.events.http.PollParameters}.
 */
final class SseFrames {

    private static final byte[] ID = "id: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA = "\ndata: ".getBytes(StandardCharsets.US_ASCII);

    private SseFrames() {
    }

    /** An event of the default type: its position as {@code id} and its JSON {@code data}, copied into one array. */
    static byte[] event(FollowedCursors.Position id, byte[] data) {
        byte[] frame = new byte[ID.length + id.length() + DATA.length + data.length + 2];
        System.arraycopy(ID, 0, frame, 0, ID.length);
        int at = id.copyTo(frame, ID.length);
        System.arraycopy(DATA, 0, frame, at, DATA.length);
        at += DATA.length;
        System.arraycopy(data, 0, frame, at, data.length);
        at += data.length;
        frame[at] = '\n';
        frame[at + 1] = '\n';
        return frame;
    }

    /** An event: {@code id}, {@code type} (null: the default, "message") and its JSON {@code data}. */
    static byte[] event(String id, String type, byte[] data) {
        StringBuilder head = new StringBuilder(64);
        if (id != null) {
            head.append("id: ").append(id).append('\n');
        }
        if (type != null) {
            head.append("event: ").append(type).append('\n');
        }
        head.append("data: ");
        byte[] start = head.toString().getBytes(StandardCharsets.UTF_8);
        byte[] frame = new byte[start.length + data.length + 2];
        System.arraycopy(start, 0, frame, 0, start.length);
        System.arraycopy(data, 0, frame, start.length, data.length);
        frame[frame.length - 2] = '\n';
        frame[frame.length - 1] = '\n';
        return frame;
    }

    /** The client's reconnect delay. */
    static byte[] retry(long millis) {
        return ("retry: " + millis + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    /** A comment line: ignored by the client, it keeps the stream and its connection visibly alive. */
    static byte[] heartbeat() {
        return ": heartbeat\n\n".getBytes(StandardCharsets.UTF_8);
    }
}

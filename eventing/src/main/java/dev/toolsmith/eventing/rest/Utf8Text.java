package dev.toolsmith.eventing.rest;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Strict UTF-8 checks for what a request carries. Java's and Vert.x's usual decoding replaces a malformed
 * sequence with U+FFFD, so a body or an id sent in Latin-1 would be stored as other text than the client sent
 * (and two different ids could become one). The JDK's decoder with {@link CodingErrorAction#REPORT} refuses
 * stray continuation bytes, truncated sequences, overlong forms and encoded surrogates.
 */
public final class Utf8Text {

    private Utf8Text() {
    }

    /** Offset of the first byte that does not start a well-formed UTF-8 sequence, if any. */
    public static OptionalInt firstMalformedByte(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(Math.min(bytes.length, 8192) + 1);
        while (true) {
            CoderResult result = decoder.decode(in, out, true);
            if (result.isError()) {
                return OptionalInt.of(in.position());
            }
            if (result.isOverflow()) {
                out.clear(); // only well-formedness matters, not the text
                continue;
            }
            result = decoder.flush(out);
            return result.isError() ? OptionalInt.of(in.position()) : OptionalInt.empty();
        }
    }

    /**
     * A URI component as sent, percent-decoded strictly: empty when the decoded bytes are not well-formed UTF-8.
     * A {@code %} not followed by two hex digits is taken as itself (the framework answers that on its own
     * terms); {@code +} is left alone, as in a path.
     */
    public static Optional<String> percentDecode(String encoded) {
        if (encoded.indexOf('%') < 0) {
            return Optional.of(encoded); // nothing percent-encoded: the characters are already text
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '%' && i + 2 < encoded.length() && hex(encoded.charAt(i + 1)) >= 0 && hex(encoded.charAt(i + 2)) >= 0) {
                bytes.write(hex(encoded.charAt(i + 1)) << 4 | hex(encoded.charAt(i + 2)));
                i += 2;
            } else {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        byte[] decoded = bytes.toByteArray();
        return firstMalformedByte(decoded).isPresent() ? Optional.empty()
                : Optional.of(new String(decoded, StandardCharsets.UTF_8));
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }
}

package dev.toolsmith.librarian.airlock.warning;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Looks through a candidate's texts that a planner's language model will read (name, description, tags,
 * and every description and title in its input and output schemas) for what a reviewer should not approve
 * unseen: characters that do not show (zero-width, direction overrides, Unicode tags, other format
 * characters) and instructions addressed to the model ("ignore previous instructions", "you must always
 * call", "system prompt", chat-role markers). It warns; it does not refuse: a reviewer decides.
 */
public final class TextWarnings {

    public static final String HIDDEN_CHARACTERS = "HIDDEN_CHARACTERS";
    public static final String LLM_INSTRUCTIONS = "LLM_INSTRUCTIONS";

    /** At most this many warnings per candidate: a document full of them needs no longer list. */
    static final int MAX_WARNINGS = 20;
    private static final int EXCERPT = 60;

    /** Phrases that speak to the model reading the description, not to a person. */
    private static final Pattern INSTRUCTION = Pattern.compile(String.join("|",
            "ignore (all |any )?(the )?(previous|prior|above|earlier|other) (instructions|prompts?|rules|tools)",
            "disregard (all |any )?(the )?(previous|prior|above|earlier|other)",
            "forget (all |any )?(the )?(previous|prior|above|your) (instructions|rules)",
            "system prompt", "you are (now )?(an? )?(ai|assistant|language model|llm)",
            "(as an|dear) (ai|assistant|llm|language model)",
            "(always|must|should) (call|use|invoke|prefer) this tool",
            "(do not|don't|never) (tell|inform|show|mention)( this to)? the user",
            "(send|forward|post|upload|exfiltrate) [^.]{0,40}(api[_ ]?keys?|secrets?|passwords?|tokens?|credentials)",
            "</?(system|assistant|instructions?|important)>", "\\[/?inst\\]", "(^|\\n)\\s*(system|assistant)\\s*:"),
            Pattern.CASE_INSENSITIVE);

    private TextWarnings() {
    }

    /** The warnings for a stored manifest, in document order. */
    public static List<TextWarning> of(JsonNode manifest) {
        List<TextWarning> found = new ArrayList<>();
        if (manifest == null) {
            return found;
        }
        for (String field : List.of("name", "verb", "description")) {
            check(manifest.path(field), "/" + field, found);
        }
        JsonNode tags = manifest.path("tags");
        for (int i = 0; i < tags.size(); i++) {
            check(tags.get(i), "/tags/" + i, found);
        }
        walkSchema(manifest.path("inputSchema"), "/inputSchema", found);
        walkSchema(manifest.path("outputSchema"), "/outputSchema", found);
        return found.size() > MAX_WARNINGS ? found.subList(0, MAX_WARNINGS) : found;
    }

    /** Descriptions and titles anywhere in a schema, and the property names themselves. */
    private static void walkSchema(JsonNode node, String pointer, List<TextWarning> found) {
        if (node == null || !node.isContainerNode() || found.size() > MAX_WARNINGS) {
            return;
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walkSchema(node.get(i), pointer + "/" + i, found);
            }
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext();) {
            Map.Entry<String, JsonNode> field = fields.next();
            String at = pointer + "/" + field.getKey().replace("~", "~0").replace("/", "~1");
            if (field.getValue().isTextual() && (field.getKey().equals("description") || field.getKey().equals("title"))) {
                check(field.getValue(), at, found);
            } else if (pointer.endsWith("/properties")) {
                hidden(field.getKey(), at, found);
                walkSchema(field.getValue(), at, found);
            } else {
                walkSchema(field.getValue(), at, found);
            }
        }
    }

    private static void check(JsonNode value, String field, List<TextWarning> found) {
        if (value == null || !value.isTextual()) {
            return;
        }
        String text = value.asText();
        hidden(text, field, found);
        Matcher m = INSTRUCTION.matcher(text);
        if (m.find()) {
            found.add(new TextWarning(LLM_INSTRUCTIONS, field, excerpt(text, m.start(), m.end()),
                    "Reads like an instruction to the language model that will read this tool (\"" + m.group().strip()
                            + "\"), not a description for people: a tool must not steer the planner."));
        }
    }

    private static void hidden(String text, String field, List<TextWarning> found) {
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (isHidden(cp)) {
                found.add(new TextWarning(HIDDEN_CHARACTERS, field, excerpt(text, i, i + Character.charCount(cp)),
                        "Contains " + name(cp) + " (U+" + String.format(Locale.ROOT, "%04X", cp) + "), which does not show"
                                + " on screen but is read by the language model: the text may say more than you see."));
                return; // one warning per text is enough to send the reviewer to it
            }
            i += Character.charCount(cp);
        }
    }

    /** Format characters (zero-width, bidi controls, tags), private-use and other invisible code points. */
    static boolean isHidden(int cp) {
        if (cp == '\n' || cp == '\r' || cp == '\t') {
            return false;
        }
        int type = Character.getType(cp);
        return type == Character.FORMAT || type == Character.CONTROL || type == Character.PRIVATE_USE
                || type == Character.UNASSIGNED || (cp >= 0xE0000 && cp <= 0xE007F) || cp == 0x115F || cp == 0x1160
                || cp == 0x3164 || cp == 0xFFA0 || (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF);
    }

    private static String name(int cp) {
        if (cp >= 0xE0000 && cp <= 0xE007F) {
            return "a Unicode tag character";
        }
        if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F) {
            return "a text-direction control";
        }
        if (cp == 0x200B || cp == 0x200C || cp == 0x200D || cp == 0x2060 || cp == 0xFEFF) {
            return "a zero-width character";
        }
        return "an invisible character";
    }

    /** The text around [start, end), hidden characters spelled out as {@code <U+XXXX>}. */
    static String excerpt(String text, int start, int end) {
        int from = Math.max(0, start - EXCERPT / 2);
        int to = Math.min(text.length(), end + EXCERPT / 2);
        StringBuilder out = new StringBuilder(from > 0 ? "…" : "");
        for (int i = from; i < to; ) {
            int cp = text.codePointAt(i);
            if (isHidden(cp)) {
                out.append("<U+").append(String.format(Locale.ROOT, "%04X", cp)).append('>');
            } else {
                out.appendCodePoint(cp);
            }
            i += Character.charCount(cp);
        }
        return out.append(to < text.length() ? "…" : "").toString();
    }
}

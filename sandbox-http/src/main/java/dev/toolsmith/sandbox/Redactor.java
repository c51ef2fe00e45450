package dev.toolsmith.sandbox;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Replaces every form of a call's secrets (plain, percent-encoded, form-encoded, base64) with
 * {@value RecordedRequest#REDACTED} in anything the executor hands back or logs: the recorded request,
 * reasons, even a response that echoes the credential.
 */
final class Redactor {

    static final Redactor NONE = new Redactor(List.of());

    private final List<String> forms;

    private Redactor(List<String> forms) {
        this.forms = forms;
    }

    static Redactor of(String secret) {
        if (secret == null || secret.isEmpty()) {
            return NONE;
        }
        List<String> forms = new ArrayList<>();
        forms.add(secret);
        addIfDifferent(forms, ParameterSerializer.encode(secret));
        addIfDifferent(forms, java.net.URLEncoder.encode(secret, StandardCharsets.UTF_8));
        addIfDifferent(forms, Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8)));
        // the longest first, so a form that contains another is replaced whole
        forms.sort((a, b) -> Integer.compare(b.length(), a.length()));
        return new Redactor(List.copyOf(forms));
    }

    private static void addIfDifferent(List<String> forms, String form) {
        if (!forms.contains(form)) {
            forms.add(form);
        }
    }

    boolean active() {
        return !forms.isEmpty();
    }

    String scrub(String text) {
        if (text == null || forms.isEmpty()) {
            return text;
        }
        String out = text;
        for (String form : forms) {
            if (out.contains(form)) {
                out = out.replace(form, RecordedRequest.REDACTED);
            }
        }
        return out;
    }

    boolean leaks(String text) {
        if (text == null) {
            return false;
        }
        for (String form : forms) {
            if (text.contains(form)) {
                return true;
            }
        }
        return false;
    }
}

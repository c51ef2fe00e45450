package dev.toolsmith.sandbox;

/** The inputs or the binding cannot make a valid request; the message names the input or binding part at fault. */
class InvalidRequestException extends Exception {

    private final FailureKind kind;

    InvalidRequestException(FailureKind kind, String message) {
        super(message);
        this.kind = kind;
    }

    FailureKind kind() {
        return kind;
    }
}

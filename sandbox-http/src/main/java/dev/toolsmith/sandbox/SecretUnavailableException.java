package dev.toolsmith.sandbox;

/** A secret could not be given: unknown name, wrong key, tampered ciphertext. The message never holds secret material. */
public class SecretUnavailableException extends Exception {

    public SecretUnavailableException(String message) {
        super(message);
    }
}

package dev.toolsmith.ui.security;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Prints the bcrypt hash of a password, for {@code toolsmith.ui.users.<name>=<hash>:<role>}. The password
 * comes from the first argument (how {@code ./toolsmith up} calls it) or, without one, from standard input
 * so it need not appear in a shell history:
 * {@code java -cp airlock-ui/target/classes:$(cat airlock-ui/target/classpath.txt) dev.toolsmith.ui.security.PasswordHashTool}.
 */
public final class PasswordHashTool {

    private PasswordHashTool() {}

    public static void main(String[] args) throws IOException {
        String password = args.length > 0 ? args[0]
                : new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        if (password == null || password.isEmpty()) {
            System.err.println("usage: PasswordHashTool <password>   (or the password on standard input)");
            System.exit(2);
        }
        System.out.println(BcryptPasswords.hash(password));
    }
}

package dev.toolsmith.ui.security;

import dev.toolsmith.ui.config.UiConfig;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.jboss.logging.Logger;

/** Checks a sign-in (the form login) against the configured users' bcrypt hashes. */
@ApplicationScoped
public class PasswordIdentityProvider implements IdentityProvider<UsernamePasswordAuthenticationRequest> {

    private static final Logger LOG = Logger.getLogger(PasswordIdentityProvider.class);

    private final ConfiguredUsers users;
    private final boolean passwordUsersOff;

    PasswordIdentityProvider(ConfiguredUsers users, UiConfig config) {
        this.users = users;
        // With OIDC sign-in on, UiRoutes refuses the sign-in form; this refuses it wherever it comes from.
        this.passwordUsersOff = config.oidc().enabled();
    }

    @Override
    public Class<UsernamePasswordAuthenticationRequest> getRequestType() {
        return UsernamePasswordAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(UsernamePasswordAuthenticationRequest request,
            AuthenticationRequestContext context) {
        if (passwordUsersOff) {
            return Uni.createFrom().failure(new AuthenticationFailedException("password sign-in is off"));
        }
        // bcrypt is deliberately slow: never on the event loop.
        return context.runBlocking(() -> {
            String name = request.getUsername();
            String password = new String(request.getPassword().getPassword());
            Optional<ConfiguredUser> user = users.find(name);
            if (user.isEmpty()) {
                BcryptPasswords.burnDecoyCheck(password);
                LOG.infof("sign-in refused: unknown user");
                throw new AuthenticationFailedException("invalid user name or password");
            }
            if (!BcryptPasswords.matches(password, user.get().passwordHash())) {
                LOG.infof("sign-in refused for %s: wrong password", name);
                throw new AuthenticationFailedException("invalid user name or password");
            }
            LOG.infof("signed in: %s (%s)", name, user.get().role().wireName());
            return UiIdentities.of(user.get());
        });
    }
}

package dev.toolsmith.engineer.jobs;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.engineer.config.EngineerConfig;
import dev.toolsmith.engineer.verify.PluginVerifier;
import dev.toolsmith.engineer.verify.SuiteGenerator;
import dev.toolsmith.engineer.wrapper.WrapperBuilder;
import dev.toolsmith.engineer.wrapper.WrapperManifestCompleter;
import dev.toolsmith.engineer.wrapper.WrapperSettings;
import dev.toolsmith.sandbox.WrappedToolExecutor;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;

/** The plain generation and verification classes (shared with the benchmark), as beans of the service. */
@ApplicationScoped
public class WrapperBuilderProducer {

    @Produces
    @ApplicationScoped
    WrappedToolExecutor executor(ContractCodec codec) {
        return new WrappedToolExecutor(codec.mapper());
    }

    /** One in-process stub server for the service's lifetime; each verification runs under its own path prefix. */
    @Produces
    @ApplicationScoped
    PluginVerifier verifier(WrappedToolExecutor executor, ContractCodec codec) {
        return new PluginVerifier(executor, codec.mapper());
    }

    void stop(@Disposes PluginVerifier verifier) {
        verifier.close();
    }

    @Produces
    @ApplicationScoped
    @DefaultBean
    WrapperBuilder builder(EngineerConfig config, PluginVerifier verifier, ContractCodec codec) {
        EngineerConfig.Wrapper w = config.wrapper();
        WrapperSettings settings = new WrapperSettings(w.defaultTimeoutMs(), w.maxTimeoutMs(), w.defaultMaxResponseBytes(),
                w.maxResponseBytesCeiling());
        return new WrapperBuilder(new WrapperManifestCompleter(settings, codec.mapper()), new SuiteGenerator(), verifier);
    }
}

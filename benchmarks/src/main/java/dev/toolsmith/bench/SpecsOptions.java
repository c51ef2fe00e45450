package dev.toolsmith.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --specs DIR [--out FILE]}: the options of the drivers that read a directory of API documents. */
public final class SpecsOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--specs", required = true, paramLabel = "DIR", description = "directory of OpenAPI/Swagger documents")
    Path specs;

    @Option(names = "--out", paramLabel = "FILE", description = "also write the details there")
    Path out;

    /** The directory; a path that is not one is a usage error (exit code 2, with the usage). */
    public Path specs() {
        if (!Files.isDirectory(specs)) {
            throw new ParameterException(command.commandLine(), "--specs " + specs + " is not a directory");
        }
        return specs;
    }

    /** Where the details go, or null. */
    public Path out() {
        return out;
    }
}

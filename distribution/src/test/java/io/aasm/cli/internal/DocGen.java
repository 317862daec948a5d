package io.aasm.cli.internal;

import io.aasm.ports.backend.Stdio;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportFormatName;
import io.aasm.ports.report.ReportRenderer;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.asciidoctor.Asciidoctor;
import org.asciidoctor.Options;
import org.asciidoctor.SafeMode;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Build step (exec-maven-plugin, prepare-package): writes the distribution's {@code completion/aasm.bash}
 * (picocli's AutoComplete) and {@code man/man1/*.1} (picocli's ManPageGenerator writes AsciiDoc man page
 * sources, Asciidoctor's manpage backend turns them into troff) from the one command tree, so they cannot
 * drift from {@code --help}. Usage: {@code DocGen DIST_DIR VERSION WORK_DIR}.
 */
public final class DocGen {
    private DocGen() {
    }

    public static void main(String[] args) throws IOException {
        Path dist = Path.of(args[0]);
        String version = args[1];
        Path work = Path.of(args[2]);
        CommandLine tree = AasmCli.tree(new Invocation(new CliIo(nothing(), new FaceSettings(Optional.empty(), version,
                List.of(), 0, Optional.empty())), new ServiceGate<>(), new ServiceGate<>(), shippedFormats()));
        Path completion = Files.createDirectories(dist.resolve("completion"));
        Files.writeString(completion.resolve("aasm.bash"), AutoComplete.bash("aasm", tree), StandardCharsets.UTF_8);

        Path adoc = Files.createDirectories(work.resolve("man-adoc"));
        ManPageGenerator.generateManPage(adoc.toFile(), null, new boolean[0], true, tree.getCommandSpec());
        Path man = Files.createDirectories(dist.resolve("man").resolve("man1"));
        try (Asciidoctor asciidoctor = Asciidoctor.Factory.create(); Stream<Path> pages = Files.list(adoc)) {
            for (Path page : pages.filter(p -> p.toString().endsWith(".adoc")).sorted().toList()) {
                String name = page.getFileName().toString().replaceFirst("\\.adoc$", ".1");
                asciidoctor.convertFile(page.toFile(), Options.builder().backend("manpage").safe(SafeMode.UNSAFE)
                        .toFile(new File(man.toFile(), name)).mkDirs(true).build());
            }
        }
    }

    /** An invocation that is never run: the tree only needs its settings. */
    private static CommandInvocation nothing() {
        PrintStream sink = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        return new CommandInvocation(List.of(), "/", Map.of(), InputStream.nullInputStream(), sink, sink,
                new Stdio.Inherit(), new CommandInvocation.Caller(CommandInvocation.Face.CLI, 0, 0), new AtomicInteger(),
                new AtomicReference<>(), List.of());
    }

    /**
     * The report formats the distribution ships (adapter-report-text: text, kv; adapter-report-json:
     * json), so the man page and completion list what an unmodified install offers; a running aasm lists
     * what is installed then.
     */
    private static ReportFormats shippedFormats() {
        ReportFormats formats = new ReportFormats();
        for (String name : List.of("text", "kv", "json")) {
            formats.bind(new ReportRenderer() {
                @Override
                public String format() {
                    return name;
                }

                @Override
                public String render(IsolationReport report) {
                    throw new UnsupportedOperationException("documentation only");
                }
            }, Map.of(ReportFormatName.PROPERTY, name));
        }
        return formats;
    }
}

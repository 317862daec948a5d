package io.aasm.cli.e2e;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The schemas published in docs/schema, as a user's tool would load them. */
final class Schemas {
    static final Path DIR = Path.of(System.getProperty("aasm.root", ".."), "docs", "schema");

    private Schemas() {
    }

    /** Every violation of {@code json} against {@code docs/schema/NAME.schema.json}, as text; empty when valid. */
    static List<String> violations(String name, String json) throws IOException {
        Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(Files.readString(DIR.resolve(name + ".schema.json")), InputFormat.JSON);
        return schema.validate(json, InputFormat.JSON).stream().map(Error::toString).toList();
    }
}

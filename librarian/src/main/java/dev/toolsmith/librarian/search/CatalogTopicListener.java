package dev.toolsmith.librarian.search;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.tool.CatalogEntry;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps this replica's index current from the compacted {@code tool-catalog} topic. Every replica reads
 * the whole topic in a consumer group of its own (see application.properties), from the earliest offset,
 * so each holds the full index. A record without a value is a tombstone: the tool was deleted. A record
 * that breaks the contract goes to {@code tool-catalog.dlq}.
 */
@ApplicationScoped
public class CatalogTopicListener {

    private final ContractCodec codec;
    private final CatalogProjection projection;

    public CatalogTopicListener(ContractCodec codec, CatalogProjection projection) {
        this.codec = codec;
        this.projection = projection;
    }

    @Incoming("tool-catalog-in")
    @Blocking
    public void onCatalogRecord(ConsumerRecord<String, byte[]> record) {
        if (record.value() == null) {
            projection.remove(record.key(), null);
            return;
        }
        CatalogEntry entry = codec.payload(codec.openEnvelope(record.value()), CatalogEntry.class);
        if (!entry.toolId().equals(entry.manifest().id())) {
            throw new ContractViolation("/data/manifest/id", "field /data/manifest/id: '" + entry.manifest().id()
                    + "' differs from the entry's toolId '" + entry.toolId() + "'");
        }
        if (record.key() != null && !record.key().equals(entry.toolId())) {
            throw new ContractViolation("/data/toolId", "field /data/toolId: '" + entry.toolId()
                    + "' differs from the record key '" + record.key() + "'");
        }
        projection.apply(entry);
    }
}

package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.tool.CatalogEntry;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.search.ToolVectors;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Reads the whole current catalog with its stored vectors, for the index rebuild at start-up. Plain JDBC:
 * it runs once, before traffic, streaming rows. Vectors made by another model than the running one (after
 * a model change) are computed again and written back, so only the first start after a change pays.
 */
@ApplicationScoped
public class CatalogSnapshot {

    private static final Logger LOG = Logger.getLogger(CatalogSnapshot.class);
    private static final String CURRENT_TOOLS = "SELECT t.id, t.revision, t.status, t.allowed_callers, v.version, "
            + "v.manifest::text, v.vector_model, v.vectors FROM catalog_tool t "
            + "JOIN catalog_tool_version v ON v.tool_id = t.id AND v.version = t.current_version ORDER BY t.id";

    private final AgroalDataSource dataSource;
    private final CatalogEntries entries;
    private final CatalogVectorizer vectorizer;

    public CatalogSnapshot(AgroalDataSource dataSource, CatalogEntries entries, CatalogVectorizer vectorizer) {
        this.dataSource = dataSource;
        this.entries = entries;
        this.vectorizer = vectorizer;
    }

    public List<StoredTool> load() {
        List<StoredTool> tools = new ArrayList<>();
        List<Integer> stale = new ArrayList<>();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false); // lets the driver stream with a fetch size
            try (PreparedStatement select = connection.prepareStatement(CURRENT_TOOLS)) {
                select.setFetchSize(500);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        ToolManifest manifest = entries.manifest(rows.getString(6));
                        CatalogEntry entry = new CatalogEntry(rows.getString(1), rows.getLong(2), rows.getInt(5),
                                rows.getString(3), manifest, callers(rows.getArray(4)), null, null);
                        ToolVectors vectors = null;
                        if (vectorizer.modelId().equals(rows.getString(7))) {
                            try {
                                vectors = ToolVectors.fromBytes(rows.getBytes(8));
                            } catch (RuntimeException e) {
                                LOG.warnf("stored vectors of %s are unreadable (%s): embedding it again", entry.toolId(),
                                        e.getMessage());
                            }
                        }
                        if (vectors == null) {
                            stale.add(tools.size());
                        }
                        tools.add(new StoredTool(entry, vectors));
                    }
                }
            }
            connection.commit();
            if (!stale.isEmpty()) {
                reembed(connection, tools, stale);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the tool catalog: " + e.getMessage(), e);
        }
        return tools;
    }

    private void reembed(Connection connection, List<StoredTool> tools, List<Integer> stale) throws SQLException {
        LOG.infof("embedding %d tools whose stored vectors are not from %s", stale.size(), vectorizer.modelId());
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE catalog_tool_version SET vector_model = ?, vectors = ? WHERE tool_id = ? AND version = ?")) {
            List<ToolVectors> fresh = vectorizer.vectorizeAllNow(
                    stale.stream().map(i -> tools.get(i).entry().manifest()).toList());
            for (int n = 0; n < stale.size(); n++) {
                int i = stale.get(n);
                StoredTool tool = tools.get(i);
                ToolVectors vectors = fresh.get(n);
                tools.set(i, new StoredTool(tool.entry(), vectors));
                update.setString(1, vectors.modelId());
                update.setBytes(2, vectors.toBytes());
                update.setString(3, tool.entry().toolId());
                update.setInt(4, tool.entry().version());
                update.addBatch();
            }
            update.executeBatch();
            connection.commit();
        }
    }

    private static List<String> callers(Array array) throws SQLException {
        if (array == null) {
            return List.of();
        }
        return Arrays.asList((String[]) array.getArray());
    }
}

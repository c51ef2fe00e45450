package dev.toolsmith.librarian.airlock;

/**
 * An OpenAPI document with as many operations as a test asks for, generated at test time: groups of a
 * list (GET with a query parameter and an array response), a create (POST with a JSON body) and a
 * delete (DELETE with a path parameter), so the scan does the work a real document asks of it.
 */
final class ManyOperations {

    private ManyOperations() {
    }

    static String document(String title, int operations) {
        StringBuilder yaml = new StringBuilder("openapi: 3.0.3\ninfo: {title: '").append(title)
                .append("', version: '1'}\nservers: [{url: 'https://many.example.com/v1'}]\npaths:\n");
        int written = 0;
        for (int group = 0; written < operations; group++) {
            yaml.append("  /things").append(group).append(":\n");
            yaml.append("    get:\n      operationId: listThings").append(group)
                    .append("\n      summary: List the things of kind ").append(group)
                    .append("\n      parameters: [{name: q, in: query, schema: {type: string}}]\n")
                    .append("      responses: {'200': {description: ok, content: {application/json: {schema:")
                    .append(" {type: array, items: {type: object, properties: {id: {type: integer},")
                    .append(" name: {type: string}}}}}}}}\n");
            written++;
            if (written < operations) {
                yaml.append("    post:\n      operationId: createThing").append(group)
                        .append("\n      summary: Create a thing of kind ").append(group)
                        .append("\n      requestBody: {content: {application/json: {schema: {type: object,")
                        .append(" properties: {name: {type: string}}}}}}\n")
                        .append("      responses: {'201': {description: created}}\n");
                written++;
            }
            if (written < operations) {
                yaml.append("  /things").append(group).append("/{id}:\n    delete:\n      operationId: deleteThing")
                        .append(group).append("\n      summary: Delete a thing of kind ").append(group)
                        .append("\n      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]\n")
                        .append("      responses: {'204': {description: gone}}\n");
                written++;
            }
        }
        return yaml.toString();
    }
}

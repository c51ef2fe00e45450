import type { JsonSchema, ParameterBinding } from '../api/types';

export interface SchemaRow {
  name: string;
  type: string;
  required: boolean;
  location?: string;
  description: string;
  constraints: string;
}

function typeOf(s: JsonSchema): string {
  // an enum names its base type; its values are listed among the constraints ("one of …")
  if (s.enum && !s.type) return 'one of the values';
  const alts = s.oneOf ?? s.anyOf;
  if (alts) return alts.map(typeOf).join(' | ');
  const t = Array.isArray(s.type) ? s.type.filter((x) => x !== 'null').join(' | ') : s.type;
  if (t === 'array' && s.items) return `array of ${typeOf(s.items)}`;
  return t ?? (s.properties ? 'object' : 'any');
}

function constraintsOf(s: JsonSchema): string {
  const parts: string[] = [];
  if (s.enum) parts.push(`one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if (s.minLength !== undefined && s.maxLength !== undefined) parts.push(`${s.minLength}–${s.maxLength} characters`);
  else if (s.minLength !== undefined) parts.push(`at least ${s.minLength} characters`);
  else if (s.maxLength !== undefined) parts.push(`at most ${s.maxLength} characters`);
  if (s.minItems !== undefined) parts.push(`at least ${s.minItems} items`);
  if (s.maxItems !== undefined) parts.push(`at most ${s.maxItems} items`);
  if (s.format) parts.push(`format ${s.format}`);
  if (s.minimum !== undefined) parts.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) parts.push(`≤ ${s.maximum}`);
  if (s.pattern) parts.push(`pattern ${s.pattern}`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join('; ');
}

/** Flattens an object schema into readable rows (nested objects as dotted names, a few levels deep). */
export function schemaRows(schema: JsonSchema | undefined, bindings: ParameterBinding[] = [], prefix = '', depth = 0): SchemaRow[] {
  if (!schema) return [];
  const merged: JsonSchema = schema.allOf
    ? schema.allOf.reduce<JsonSchema>((acc, part) => ({
      ...acc, properties: { ...acc.properties, ...part.properties }, required: [...(acc.required ?? []), ...(part.required ?? [])],
    }), { ...schema, allOf: undefined })
    : schema;
  const props = merged.properties ?? {};
  const required = new Set(merged.required ?? []);
  const rows: SchemaRow[] = [];
  for (const [name, prop] of Object.entries(props)) {
    const full = prefix ? `${prefix}.${name}` : name;
    const binding = depth === 0 ? bindings.find((b) => b.name === name) : undefined;
    rows.push({
      name: full, type: typeOf(prop), required: required.has(name),
      location: binding ? (binding.in ?? binding.location ?? '').toLowerCase() : undefined,
      description: prop.description ?? '', constraints: constraintsOf(prop),
    });
    if (depth < 2 && (prop.properties || prop.allOf)) rows.push(...schemaRows(prop, [], full, depth + 1));
    if (depth < 2 && prop.items && (prop.items.properties || prop.items.allOf)) rows.push(...schemaRows(prop.items, [], `${full}[]`, depth + 1));
  }
  return rows;
}

export function SchemaTable({ schema, bindings, emptyText }: { schema?: JsonSchema; bindings?: ParameterBinding[]; emptyText: string }) {
  const rows = schemaRows(schema, bindings ?? []);
  if (rows.length === 0) {
    const t = schema ? typeOf(schema) : null;
    return <p className="muted">{t && t !== 'object' && t !== 'any' ? `A single ${t} value.` : emptyText}</p>;
  }
  const showLocation = rows.some((r) => r.location);
  return (
    <table className="table schema-table">
      <thead><tr><th>Name</th><th>Type</th><th>Required</th>{showLocation && <th>Sent in</th>}<th>Description</th><th>Constraints</th></tr></thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name}>
            <td className="mono">{r.name}</td><td>{r.type}</td><td>{r.required ? 'yes' : ''}</td>
            {showLocation && <td>{r.location ?? ''}</td>}
            <td>{r.description}</td><td className="small">{r.constraints}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

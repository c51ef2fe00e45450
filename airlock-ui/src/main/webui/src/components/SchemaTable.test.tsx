import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { SchemaTable, schemaRows } from './SchemaTable';

describe('SchemaTable', () => {
  const schema = {
    type: 'object', required: ['petId'],
    properties: {
      petId: { type: 'integer', description: 'ID of the pet', minimum: 1 },
      status: { type: 'string', enum: ['available', 'sold'] },
      name: { type: 'string', minLength: 1, maxLength: 40 },
      owner: { type: 'object', properties: { name: { type: ['string', 'null'] } } },
      tags: { type: 'array', items: { type: 'string' } },
    },
  };

  it('flattens properties with types, required flags, where they are sent and constraints', () => {
    const rows = schemaRows(schema, [{ name: 'petId', in: 'PATH' }]);
    expect(rows.map((r) => r.name)).toEqual(['petId', 'status', 'name', 'owner', 'owner.name', 'tags']);
    expect(rows[0]).toMatchObject({ type: 'integer', required: true, location: 'path', constraints: '≥ 1' });
    expect(rows[1]).toMatchObject({ type: 'string', constraints: 'one of "available", "sold"' });
    expect(rows[2].constraints).toBe('1–40 characters');
    expect(rows[4].type).toBe('string');
    expect(rows[5].type).toBe('array of string');
  });

  it('renders a readable table, not JSON', () => {
    render(<SchemaTable schema={schema} emptyText="none" />);
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.getByText('ID of the pet')).toBeInTheDocument();
    expect(screen.queryByText(/"properties"/)).toBeNull();
  });

  it('says so when there is nothing', () => {
    render(<SchemaTable schema={{ type: 'object' }} emptyText="No parameters." />);
    expect(screen.getByText('No parameters.')).toBeInTheDocument();
  });
});

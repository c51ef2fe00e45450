import { KeyboardEvent, useEffect, useState } from 'react';
import { sources } from '../api/services';
import type { ToolSource } from '../api/types';

/** How many sources one look-up offers; typing narrows the rest (the librarian searches name and URL). */
const OFFERED = 20;

/**
 * A filter's source, chosen by typing: an ARIA combobox whose choices come from the librarian's own search
 * (`GET /tools/sources?q=…&sort=name&size=20`), so every source is reachable however many there are, and
 * nothing is loaded until the admin opens it. Arrow keys move through the choices, Enter picks one (the first
 * when none is highlighted), Escape closes the list; emptying the field means every source.
 */
export function SourcePicker({ id, value, onChange }: { id: string; value: string; onChange: (sourceId: string) => void }) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<ToolSource[]>([]);
  const [total, setTotal] = useState(0);
  const [active, setActive] = useState(-1);
  const listId = `${id}-choices`;

  // the chosen source's name, also after a reload of a filtered view (#/review?source=<id>)
  useEffect(() => {
    if (!value) { setText(''); return undefined; }
    let live = true;
    sources.get(value).then((s) => { if (live) setText(s.name); }, () => { if (live) setText(''); });
    return () => { live = false; };
  }, [value]);

  // searched while the list is open, 250 ms after the last key
  useEffect(() => {
    if (!open) return undefined;
    let live = true;
    const timer = window.setTimeout(() => {
      sources.list(0, OFFERED, { q: text.trim() || undefined, sort: 'name' }).then(
        (p) => { if (live) { setOptions(p.items); setTotal(p.total ?? p.items.length); setActive(-1); } },
        () => { if (live) { setOptions([]); setTotal(0); } });
    }, 250);
    return () => { live = false; window.clearTimeout(timer); };
  }, [text, open]);

  const choose = (s: ToolSource) => { setOpen(false); setText(s.name); if (s.id !== value) onChange(s.id); };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') { e.preventDefault(); setOpen(true); setActive((a) => Math.min(a + 1, options.length - 1)); }
    else if (e.key === 'ArrowUp') { e.preventDefault(); setActive((a) => Math.max(a - 1, 0)); }
    else if (e.key === 'Enter' && open && options.length > 0) { e.preventDefault(); choose(options[Math.max(active, 0)]); }
    else if (e.key === 'Escape' && open) { e.preventDefault(); e.stopPropagation(); setOpen(false); }
  };

  return (
    <span className="combo">
      <input id={id} role="combobox" aria-expanded={open} aria-controls={listId} aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined} autoComplete="off"
        value={text} placeholder="all sources" maxLength={200} onKeyDown={onKey}
        onFocus={() => setOpen(true)} onBlur={() => window.setTimeout(() => setOpen(false), 150)}
        onChange={(e) => { setText(e.target.value); setOpen(true); if (!e.target.value && value) onChange(''); }} />
      {open && (
        <span className="combo-popup">
          <ul id={listId} role="listbox" aria-label="matching sources">
            {options.map((s, i) => (
              <li key={s.id} id={`${listId}-${i}`} role="option" aria-selected={i === active}
                onMouseDown={(e) => { e.preventDefault(); choose(s); }}>{s.name}</li>
            ))}
          </ul>
          <span className="muted small" role="status">
            {options.length === 0 ? 'No source matches.' : total > options.length ? `${total - options.length} more match: type to narrow.` : ''}
          </span>
        </span>
      )}
    </span>
  );
}

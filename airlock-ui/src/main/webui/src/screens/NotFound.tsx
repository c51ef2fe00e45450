import { href } from '../components/route';

/** An address the app has no screen for: say so, and offer the screens there are. */
export function NotFound({ path }: { path: string }) {
  return (
    <section>
      <h1>Page not found</h1>
      <p>There is no screen at <span className="mono">#/{path}</span>.</p>
      <p>Go to the <a href={href('review')}>review queue</a>, the <a href={href('sources')}>sources</a> or the <a href={href('catalog')}>catalog</a>.</p>
    </section>
  );
}

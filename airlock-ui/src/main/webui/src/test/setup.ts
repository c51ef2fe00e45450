import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';

// Drafts kept in sessionStorage (the approve form) must not leak from one test into the next.
afterEach(() => window.sessionStorage.clear());

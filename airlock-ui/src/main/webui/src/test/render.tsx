import { render } from '@testing-library/react';
import { ReactElement } from 'react';
import { SessionProvider } from '../components/session';

export function renderAs(role: 'admin' | 'viewer', ui: ReactElement) {
  return render(<SessionProvider value={{ user: role, role }}>{ui}</SessionProvider>);
}

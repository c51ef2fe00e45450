import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { fetchQueueEarly } from './screens/ReviewQueue';
import './styles.css';

// the review queue's list is asked for alongside the session check, not after it (cold first paint)
fetchQueueEarly(window.location.hash);

createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>);

/**
 * Imported first by the preload: the window's Content-Security-Policy forbids eval, so zod must
 * not compile its fast parsers when the contract's schemas are built (as in the renderer).
 */
import { z } from 'zod';

z.config({ jitless: true });

/**
 * Imported first by the entry: the page's Content-Security-Policy forbids eval, so zod must not
 * compile its fast parsers (it decides when each schema is built, i.e. when the contract module
 * is evaluated — hence a module of its own, ahead of every other import).
 */
import { z } from 'zod';

z.config({ jitless: true });

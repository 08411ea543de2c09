/**
 * The application's store and geometry registry (one of each per window), and the hook
 * components read the store with.
 */
import { useStore } from 'zustand';
import { geometryRegistry } from './scene/geometryRegistry';
import { createAppStore } from './state/store';
import type { AppState } from './state/types';

export { geometryRegistry };

export const appStore = createAppStore({
  geometry: geometryRegistry,
  confirm: (message) => window.confirm(message),
  scheduleFrame: (run) => void window.requestAnimationFrame(() => run()),
});

/** Reads the store; pick primitives or stable references (use `useShallow` for objects). */
export function useApp<T>(selector: (state: AppState) => T): T {
  return useStore(appStore, selector);
}

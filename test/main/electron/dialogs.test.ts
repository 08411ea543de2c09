import { describe, expect, it } from 'vitest';
import { createHostDialogs } from '../../../src-main/main/dialogs.js';

function fakeDialog(answers: { open?: { canceled: boolean; filePaths: string[] }; save?: { canceled: boolean; filePath: string } }) {
  const calls: { kind: string; parent: unknown; options: Record<string, unknown> }[] = [];
  const record = (kind: string, a: unknown, b: unknown) => {
    const withParent = b !== undefined;
    calls.push({ kind, parent: withParent ? a : null, options: (withParent ? b : a) as Record<string, unknown> });
  };
  const dialog = {
    showOpenDialog: async (a: unknown, b?: unknown) => { record('open', a, b); return answers.open ?? { canceled: true, filePaths: [] }; },
    showSaveDialog: async (a: unknown, b?: unknown) => { record('save', a, b); return answers.save ?? { canceled: true, filePath: '' }; },
  };
  return { dialog: dialog as never, calls };
}

const filters = [{ name: 'STEP', extensions: ['stp', 'step'] }];
const window = { isDestroyed: () => false };

describe('native dialogs', () => {
  it('opens one file, parented to the window', async () => {
    const { dialog, calls } = fakeDialog({ open: { canceled: false, filePaths: ['/a.stp', '/b.stp'] } });
    const d = createHostDialogs(dialog, () => window as never);
    expect(await d.openFile({ title: 'Open', filters })).toBe('/a.stp');
    expect(calls).toEqual([{ kind: 'open', parent: window, options: { title: 'Open', filters, properties: ['openFile'] } }]);
  });

  it('opens several files for a batch', async () => {
    const { dialog, calls } = fakeDialog({ open: { canceled: false, filePaths: ['/a.json', '/b.json'] } });
    expect(await createHostDialogs(dialog, () => null).openFiles({ title: 'Batch', filters })).toEqual(['/a.json', '/b.json']);
    expect(calls[0]).toMatchObject({ parent: null, options: { properties: ['openFile', 'multiSelections'] } });
  });

  it('asks where to save, with the default path and overwrite confirmation', async () => {
    const { dialog, calls } = fakeDialog({ save: { canceled: false, filePath: '/out.assembly.json' } });
    const d = createHostDialogs(dialog, () => window as never);
    expect(await d.saveFile({ title: 'Save', defaultPath: '/a.assembly.json', filters })).toBe('/out.assembly.json');
    expect(calls[0].options).toEqual({ title: 'Save', defaultPath: '/a.assembly.json', filters, properties: ['createDirectory', 'showOverwriteConfirmation'] });
  });

  it('chooses a folder', async () => {
    const { dialog, calls } = fakeDialog({ open: { canceled: false, filePaths: ['/reports'] } });
    expect(await createHostDialogs(dialog, () => window as never).chooseFolder({ title: 'Reports' })).toBe('/reports');
    expect(calls[0].options).toEqual({ title: 'Reports', properties: ['openDirectory', 'createDirectory'] });
  });

  it('answers null or nothing when cancelled, and does not parent to a closed window', async () => {
    const { dialog, calls } = fakeDialog({});
    const d = createHostDialogs(dialog, () => ({ isDestroyed: () => true }) as never);
    expect(await d.openFile({ title: 'Open', filters })).toBeNull();
    expect(await d.openFiles({ title: 'Batch', filters })).toEqual([]);
    expect(await d.saveFile({ title: 'Save', filters })).toBeNull();
    expect(await d.chooseFolder({ title: 'Reports' })).toBeNull();
    expect(calls.every((c) => c.parent === null)).toBe(true);
  });
});

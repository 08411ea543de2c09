import { describe, expect, it } from 'vitest';
import type { DocumentInfo } from '../../src-main/contract/host';
import { foregroundJob, isPartVisible, selectedResultOf } from '../../src-renderer/state/selectors';
import { createAppStore, type AppStore } from '../../src-renderer/state/store';
import {
  checkOutcome,
  createFakeHost,
  documentInfo,
  FakeHostError,
  FakeRegistry,
  flush,
  pairResult,
  part,
  translation,
  type FakeHost,
} from '../support/fakeHost';

interface Setup {
  store: AppStore;
  host: FakeHost;
  registry: FakeRegistry;
  clock: { t: number };
  confirms: string[];
}

async function setup(doc: DocumentInfo = documentInfo(), options: { host?: 'electron' | 'bridge'; confirm?: boolean } = {}): Promise<Setup> {
  const host = createFakeHost(doc, options.host ?? 'bridge');
  const registry = new FakeRegistry();
  const clock = { t: 1000 };
  const confirms: string[] = [];
  const store = createAppStore({
    geometry: registry,
    now: () => clock.t,
    confirm: (m) => {
      confirms.push(m);
      return options.confirm ?? true;
    },
  });
  await store.getState().connect(host.api);
  await flush();
  return { store, host, registry, clock, confirms };
}

describe('connecting and the startup document', () => {
  it('shows the startup document, loads each body once and fits the view', async () => {
    const doc = documentInfo({ parts: [part('a', { bodyKey: 'k1' }), part('b', { bodyKey: 'k1' }), part('c', { bodyKey: 'k2' })] });
    const { store, host, registry } = await setup(doc);
    const s = store.getState();
    expect(s.connection).toBe('connected');
    expect(s.doc?.id).toBe('doc-1');
    expect(s.geometry.status).toBe('ready');
    expect(registry.added.sort()).toEqual(['k1', 'k2']);
    expect(host.calls.filter(([c]) => c === 'doc.geometry')).toHaveLength(1);
    expect(s.camera?.command).toEqual({ kind: 'fitAll' });
    expect(s.partNames.get('a')).toBe('a');
    for (const e of ['doc.changed', 'job.progress', 'job.done', 'job.failed', 'host.error', 'menu.command', 'batch.file'] as const) {
      expect(host.listenerCount(e), e).toBe(1);
    }
    s.disconnect();
    expect(host.listenerCount('job.done')).toBe(0);
  });

  it('reports a failed start and failed geometry with the reason', async () => {
    const host = createFakeHost();
    host.handle('app.info', () => {
      throw new FakeHostError({ code: 'internal', message: 'the host service did not start' });
    });
    const store = createAppStore({ geometry: new FakeRegistry() });
    await store.getState().connect(host.api);
    expect(store.getState().connection).toBe('failed');
    expect(store.getState().notices.at(-1)).toMatchObject({ level: 'error', title: 'Could not start', message: 'the host service did not start' });

    const host2 = createFakeHost();
    host2.handle('doc.geometry', () => {
      throw new FakeHostError({ code: 'not-found', message: 'parts.stp: no such document', path: '/data/parts.stp' });
    });
    const store2 = createAppStore({ geometry: new FakeRegistry() });
    await store2.getState().connect(host2.api);
    await flush();
    expect(store2.getState().geometry.status).toBe('failed');
    expect(store2.getState().notices.at(-1)).toMatchObject({ level: 'error', code: 'not-found', path: '/data/parts.stp' });
  });

  it('shows the warnings a document opened with', async () => {
    const { store } = await setup(documentInfo({ warnings: ['as1.stp: face 3 has no triangles', 'as1.stp: body 2 is open'] }));
    const n = store.getState().notices.at(-1);
    expect(n?.level).toBe('warning');
    expect(n?.message).toContain('face 3 has no triangles');
    expect(n?.message).toContain('body 2 is open');
  });
});

describe('checks and jobs', () => {
  it('runs a check, follows its progress and shows the outcome', async () => {
    const { store, host, clock } = await setup();
    const run = store.getState().runCheck();
    expect(store.getState().check.running).toBe(true);
    await run;
    expect(store.getState().check.jobId).toBe('job-1');
    expect(host.calls.find(([c]) => c === 'check.run')?.[1]).toEqual({ docId: 'doc-1', refine: true });

    clock.t = 1200;
    host.emit('job.progress', { jobId: 'job-1', kind: 'check', stage: 'building trees', done: 3, total: 10 });
    expect(foregroundJob(store.getState())).toMatchObject({ id: 'job-1', stage: 'building trees', done: 3, total: 10, startedAt: 1000 });

    clock.t = 1500;
    const outcome = checkOutcome('doc-1', [pairResult('a', 'b')]);
    host.emit('job.done', { jobId: 'job-1', kind: 'check', outcome });
    const s = store.getState();
    expect(s.check).toMatchObject({ running: false, jobId: null, finishedAt: 1500, stale: false });
    expect(s.check.outcome?.results).toHaveLength(1);
    expect(s.jobs).toEqual({});
    expect(foregroundJob(s)).toBeNull();
  });

  it('refines CAD fits unless the toggle is off, and keeps the choice across documents', async () => {
    const { store, host } = await setup();
    expect(store.getState().refineFits).toBe(true);
    store.getState().setRefineFits(false);
    await store.getState().runCheck();
    expect(host.calls.filter(([c]) => c === 'check.run').at(-1)?.[1]).toEqual({ docId: 'doc-1', refine: false });
    host.emit('job.done', { jobId: 'job-1', kind: 'check', outcome: checkOutcome('doc-1', []) });
    expect(store.getState().check.outcomeRefine).toBe(false);

    host.handle('doc.open', () => documentInfo({ id: 'doc-2', name: 'other.stp' }));
    await store.getState().openDocument('/data/other.stp');
    await flush();
    expect(store.getState().doc?.id).toBe('doc-2');
    expect(store.getState().refineFits).toBe(false);
    host.handle('check.run', () => ({ jobId: 'job-2' }));
    store.getState().runCommand('check.run');
    await flush();
    expect(host.calls.filter(([c]) => c === 'check.run').at(-1)?.[1]).toEqual({ docId: 'doc-2', scope: { kind: 'all' }, refine: false });
    host.emit('job.done', { jobId: 'job-2', kind: 'check', outcome: checkOutcome('doc-2', []) });

    store.getState().setRefineFits(true);
    host.handle('check.run', () => ({ jobId: 'job-3' }));
    await store.getState().runCheck();
    expect(host.calls.filter(([c]) => c === 'check.run').at(-1)?.[1]).toEqual({ docId: 'doc-2', refine: true });
    host.emit('job.done', { jobId: 'job-3', kind: 'check', outcome: checkOutcome('doc-2', []) });
    expect(store.getState().check.outcomeRefine).toBe(true);
    // An outcome this window did not ask for: whether it was refined is not known.
    host.emit('job.done', { jobId: 'job-4', kind: 'check', outcome: checkOutcome('doc-2', []) });
    expect(store.getState().check.outcomeRefine).toBeNull();
  });

  it('takes an outcome with undecided and refined pairs through the contract, and selects them', async () => {
    const { store, host } = await setup(documentInfo({ parts: [part('a'), part('b', { body: 1, bodyKey: 'src#1' }), part('c', { body: 2, bodyKey: 'src#2' })] }));
    await store.getState().runCheck();
    const undecided = pairResult('a', 'b', {
      kind: 'undecided',
      depthMm: 0.004,
      resolutionMm: 0.008,
      refinedDeflectionMm: 0.0005,
      separationRangeMm: [-0.012, 0.003],
      possibleKinds: ['interference', 'contact'],
    });
    const refined = pairResult('a', 'c', { kind: 'interference', depthMm: 0.02, volumeMm3: 0.5, resolutionMm: 0.0011, refinedDeflectionMm: 0.001, separationRangeMm: [-0.0211, -0.0189] });
    host.emit('job.done', { jobId: 'job-1', kind: 'check', outcome: checkOutcome('doc-1', [undecided, refined]) });
    const s = store.getState();
    expect(s.check.outcome?.summary).toMatchObject({ interferences: 1, undecided: 1, refinedPairs: 2, finestDeflectionMm: 0.0005 });
    s.selectResult('a|b');
    const selected = selectedResultOf(store.getState());
    expect(selected).toMatchObject({ kind: 'undecided', possibleKinds: ['interference', 'contact'], separationRangeMm: [-0.012, 0.003], refinedDeflectionMm: 0.0005 });
    expect(store.getState().selectedParts).toEqual(['a', 'b']);
  });

  it('accepts a job whose events arrive before the response naming it', async () => {
    const { store, host } = await setup();
    host.handle('check.run', () => {
      host.emit('job.progress', { jobId: 'job-7', kind: 'check', stage: 'checking pairs', done: 1, total: 1 });
      host.emit('job.done', { jobId: 'job-7', kind: 'check', outcome: checkOutcome('doc-1', []) });
      return { jobId: 'job-7' };
    });
    await store.getState().runCheck();
    const s = store.getState();
    expect(s.check.running).toBe(false);
    expect(s.check.jobId).toBeNull();
    expect(s.check.outcome?.results).toEqual([]);
    expect(s.jobs).toEqual({});
  });

  it('shows a failed check with the file and the reason, and a cancelled one as a message', async () => {
    const { store, host } = await setup();
    await store.getState().runCheck();
    host.emit('job.failed', {
      jobId: 'job-1',
      kind: 'check',
      error: { code: 'worker-crashed', message: 'the tree builder stopped while reading parts.stp', path: '/data/parts.stp' },
      cancelled: false,
    });
    expect(store.getState().check.running).toBe(false);
    expect(store.getState().notices.at(-1)).toMatchObject({
      level: 'error',
      title: 'The check failed',
      code: 'worker-crashed',
      path: '/data/parts.stp',
    });

    host.handle('check.run', () => ({ jobId: 'job-2' }));
    await store.getState().runCheck();
    await store.getState().cancelJob();
    expect(host.calls.filter(([c]) => c === 'job.cancel').at(-1)?.[1]).toEqual({ jobId: 'job-2' });
    host.emit('job.failed', { jobId: 'job-2', kind: 'check', error: { code: 'cancelled', message: 'cancelled by the user' }, cancelled: true });
    expect(store.getState().notices.at(-1)).toMatchObject({ level: 'info', title: 'The check was cancelled' });
  });

  it('cancels as soon as the job id is known when asked before', async () => {
    const { store, host } = await setup();
    let answer: (v: { jobId: string }) => void = () => {};
    host.handle('check.run', () => new Promise((r) => (answer = r)));
    const run = store.getState().runCheck();
    await flush();
    await store.getState().cancelJob();
    expect(store.getState().check.cancelRequested).toBe(true);
    expect(host.calls.some(([c]) => c === 'job.cancel')).toBe(false);
    answer({ jobId: 'job-9' });
    await run;
    expect(host.calls.filter(([c]) => c === 'job.cancel').at(-1)?.[1]).toEqual({ jobId: 'job-9' });
  });

  it('marks results stale when placements change, not when visibility does', async () => {
    const { store, host } = await setup();
    await store.getState().runCheck();
    host.emit('job.done', { jobId: 'job-1', kind: 'check', outcome: checkOutcome('doc-1', [pairResult('a', 'b')]) });
    const doc = store.getState().doc as DocumentInfo;
    host.emit('doc.changed', { ...doc, parts: doc.parts.map((p) => ({ ...p, visible: false })) });
    expect(store.getState().check.stale).toBe(false);
    host.emit('doc.changed', { ...doc, parts: doc.parts.map((p) => (p.id === 'b' ? { ...p, transform: translation(20, 0, 0) } : p)) });
    expect(store.getState().check.stale).toBe(true);
  });

  it('ignores outcomes of another document', async () => {
    const { store, host } = await setup();
    host.emit('job.done', { jobId: 'job-3', kind: 'check', outcome: checkOutcome('doc-other', [pairResult('a', 'b')]) });
    expect(store.getState().check.outcome).toBeNull();
  });

  it('reports failed requests with the file and the reason', async () => {
    const { store, host } = await setup();
    host.handle('doc.open', () => {
      throw new FakeHostError({ code: 'import-failed', message: 'broken.stp: not a STEP file (no ISO-10303-21 header)', path: '/data/broken.stp' });
    });
    await store.getState().openDocument('/data/broken.stp');
    expect(store.getState().notices.at(-1)).toMatchObject({
      level: 'error',
      title: 'Could not open the file',
      message: 'broken.stp: not a STEP file (no ISO-10303-21 header)',
      code: 'import-failed',
      path: '/data/broken.stp',
    });
    expect(store.getState().busy).toBeNull();
    host.emit('host.error', { code: 'worker-restarted', message: 'the tree builder crashed and was restarted', path: null });
    expect(store.getState().notices.at(-1)).toMatchObject({ level: 'error', code: 'worker-restarted' });
  });
});

describe('documents', () => {
  it('opens another document, forgets the old state, and ignores late news of the old one', async () => {
    const { store, host, registry } = await setup();
    store.getState().selectPart('a');
    store.getState().setVisible(['b'], false);
    const next = documentInfo({ id: 'doc-2', name: 'other.stp', parts: [part('x', { bodyKey: 'k9' })] });
    host.handle('doc.open', () => next);
    await store.getState().openDocument('/data/other.stp');
    await flush();
    let s = store.getState();
    expect(s.doc?.id).toBe('doc-2');
    expect(s.selectedParts).toEqual([]);
    expect(s.visibility).toEqual({});
    expect([...registry.keys]).toEqual(['k9']);
    expect(host.calls.some(([c, r]) => c === 'doc.close' && r.docId === 'doc-1')).toBe(true);
    host.emit('doc.changed', documentInfo());
    s = store.getState();
    expect(s.doc?.id).toBe('doc-2');
  });

  it('asks before discarding unsaved changes once the other file has opened, and not for a file that does not open', async () => {
    const { store, host, confirms } = await setup(documentInfo({ dirty: true }), { confirm: false });
    host.handle('doc.open', (req) => {
      if (req.path === '/data/missing.stp') throw new FakeHostError({ code: 'not-found', message: '/data/missing.stp: no such file', path: '/data/missing.stp' });
      return documentInfo({ id: 'doc-2', name: 'other.stp', path: '/data/other.stp' });
    });
    await store.getState().openDocument('/data/missing.stp');
    expect(confirms).toEqual([]);
    expect(store.getState().notices.at(-1)).toMatchObject({ level: 'error', message: '/data/missing.stp: no such file' });
    expect(store.getState().doc?.id).toBe('doc-1');

    // Declined: the current document stays, the one opened for nothing is closed.
    await store.getState().openDocument('/data/other.stp');
    expect(confirms).toHaveLength(1);
    expect(confirms[0]).toMatch(/has unsaved changes\. Open other\.stp and discard them\?$/);
    expect(store.getState().doc?.id).toBe('doc-1');
    expect(host.calls.some(([c, r]) => c === 'doc.close' && r.docId === 'doc-2')).toBe(true);
  });

  it('opens a dropped file through the shell, asking over unsaved changes, and names it when it fails', async () => {
    const dropped = documentInfo({ id: 'doc-3', name: 'dropped.stp', path: '/home/me/dropped.stp', parts: [part('d', { bodyKey: 'k7' })] });
    const refused = await setup(documentInfo({ dirty: true }), { confirm: false });
    let opened = 0;
    await refused.store.getState().openDropped('dropped.stp', () => {
      opened++;
      return Promise.resolve(dropped);
    });
    expect(refused.confirms).toHaveLength(1);
    expect(opened).toBe(1);
    expect(refused.store.getState().doc?.id).toBe('doc-1');

    const { store, host } = await setup();
    await store.getState().openDropped('dropped.stp', () => Promise.resolve(dropped));
    await flush();
    expect(store.getState().doc?.id).toBe('doc-3');
    expect(store.getState().busy).toBeNull();
    expect(host.calls.some(([c, r]) => c === 'doc.close' && r.docId === 'doc-1')).toBe(true);

    await store.getState().openDropped('broken.stp', () => Promise.reject(new FakeHostError({ code: 'import-failed', message: 'broken.stp: not a STEP file', path: '/home/me/broken.stp' })));
    const notice = store.getState().notices.at(-1);
    expect(notice?.level).toBe('error');
    expect(notice?.message).toContain('broken.stp: not a STEP file');
    expect(store.getState().doc?.id).toBe('doc-3');
  });

  it('changes settings through the host', async () => {
    const { store, host } = await setup();
    host.handle('doc.update', () => documentInfo({ settings: { touchToleranceMm: 0.05, clearanceMm: 0, contactIsInterference: false }, dirty: true }));
    await store.getState().updateSettings({ touchToleranceMm: 0.05 });
    expect(host.calls.find(([c]) => c === 'doc.update')?.[1]).toEqual({ docId: 'doc-1', settings: { touchToleranceMm: 0.05 } });
    expect(store.getState().doc?.settings.touchToleranceMm).toBe(0.05);
    expect(store.getState().doc?.dirty).toBe(true);
  });

  it('saves and shows where', async () => {
    const { store, host } = await setup(documentInfo({ dirty: true }));
    host.handle('doc.save', (req) => ({ path: String(req.path) }));
    const saved = await store.getState().saveDocument({ saveAs: true, path: '/data/parts.assembly.json' });
    expect(saved).toBe('/data/parts.assembly.json');
    expect(store.getState().doc).toMatchObject({ dirty: false, path: '/data/parts.assembly.json' });
    expect(host.calls.find(([c]) => c === 'doc.save')?.[1]).toEqual({ docId: 'doc-1', saveAs: true, path: '/data/parts.assembly.json' });
  });
});

describe('batch checks', () => {
  it('shows a refused report folder in the Batch dialog, and a finished batch there only as a passing message', async () => {
    const { store, host } = await setup();
    host.handle('batch.run', (req) => {
      if (req.reportFolder === '/nowhere/reports') throw new FakeHostError({ code: 'permission-denied', message: 'the report folder /nowhere/reports cannot be made: permission denied', path: '/nowhere/reports' });
      return { jobId: 'job-9' };
    });
    store.getState().openDialog('batch');
    await store.getState().runBatch(['/data/a.assembly.json'], '/nowhere/reports');
    expect(store.getState().batch).toMatchObject({ status: 'failed', error: 'the report folder /nowhere/reports cannot be made: permission denied' });
    expect(store.getState().notices).toEqual([]);

    await store.getState().runBatch(['/data/a.assembly.json'], '/data/reports');
    const failed = { path: '/data/a.assembly.json', status: 'failed' as const, exitCode: 2 as const, summary: null, reportPath: null, error: 'a.assembly.json: broken' };
    host.emit('job.done', { jobId: 'job-9', kind: 'batch', files: [failed] });
    expect(store.getState().batch?.status).toBe('done');
    expect(store.getState().notices.at(-1)).toMatchObject({ level: 'info', title: 'Batch check finished' });
  });
});

describe('selection and view', () => {
  it('selects with toggle and range, and a result with its two parts', async () => {
    const doc = documentInfo({ parts: ['p', 'q', 'r', 's'].map((id) => part(id)) });
    const { store, host } = await setup(doc);
    const s = () => store.getState();
    s().selectPart('q');
    s().selectPart('s', 'range');
    expect(s().selectedParts).toEqual(['q', 'r', 's']);
    s().selectPart('r', 'toggle');
    expect(s().selectedParts).toEqual(['q', 's']);

    await s().runCheck();
    host.emit('job.done', { jobId: 'job-1', kind: 'check', outcome: checkOutcome('doc-1', [pairResult('r', 'p')]) });
    s().selectResult('p|r');
    expect(selectedResultOf(s())?.a).toBe('r');
    expect(s().selectedParts).toEqual(['r', 'p']);
    expect(s().camera?.command).toEqual({ kind: 'fitResult', key: 'p|r' });
    s().selectResult('nope|none');
    expect(s().selectedResult).toBeNull();
  });

  it('hides, isolates and shows parts over the document visibility', async () => {
    const doc = documentInfo({ parts: [part('a'), part('b', { visible: false }), part('c')] });
    const { store } = await setup(doc);
    const s = () => store.getState();
    const visible = () => s().doc?.parts.filter((p) => isPartVisible(s(), p)).map((p) => p.id);
    expect(visible()).toEqual(['a', 'c']);
    s().isolate(['c']);
    expect(visible()).toEqual(['c']);
    s().showAll();
    expect(visible()).toEqual(['a', 'b', 'c']);
  });
});

describe('commands', () => {
  it('opens the path dialog without native dialogs, and asks the host with them', async () => {
    const bridge = await setup();
    bridge.store.getState().runCommand('file.open');
    expect(bridge.store.getState().dialog).toBe('open');
    bridge.store.getState().runCommand('check.cancel');
    expect(bridge.store.getState().dialog).toBeNull();

    const electron = await setup(documentInfo(), { host: 'electron' });
    electron.host.handle('doc.open', () => null);
    electron.store.getState().runCommand('file.open');
    await flush();
    expect(electron.host.calls.find(([c]) => c === 'doc.open')?.[1]).toEqual({});
    expect(electron.store.getState().dialog).toBeNull();
  });

  it('runs menu commands from the host, once even when the key also arrives', async () => {
    const { store, host, clock } = await setup();
    host.emit('menu.command', { command: 'view.front' });
    expect(store.getState().camera?.command).toEqual({ kind: 'view', view: 'front' });
    const seq = store.getState().camera?.seq ?? 0;
    store.getState().runCommand('view.fitAll', 'key');
    clock.t += 50;
    host.emit('menu.command', { command: 'view.fitAll' });
    expect(store.getState().camera?.seq).toBe(seq + 1);
    clock.t += 1000;
    host.emit('menu.command', { command: 'view.fitAll' });
    expect(store.getState().camera?.seq).toBe(seq + 2);
  });

  it('runs the check from the command and toggles the projection', async () => {
    const { store, host } = await setup();
    store.getState().runCommand('check.run');
    await flush();
    expect(host.calls.find(([c]) => c === 'check.run')?.[1]).toEqual({ docId: 'doc-1', scope: { kind: 'all' }, refine: true });
    store.getState().runCommand('view.toggleProjection');
    expect(store.getState().projection).toBe('orthographic');
  });

  it('explains why there is nothing to export yet', async () => {
    const { store } = await setup();
    store.getState().runCommand('file.exportReport');
    expect(store.getState().dialog).toBeNull();
    expect(store.getState().notices.at(-1)?.title).toBe('Nothing to export yet');
  });
});

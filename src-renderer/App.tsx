/**
 * The main window: toolbar on top, part tree and the selected part's placement on the left, the
 * 3D viewport in the centre with the results below it (both panels resizable by their edges), a
 * status bar, messages over the viewport, and the context menu and dialogs over everything.
 */
import { useRef } from 'react';
import { Viewport } from './scene/Viewport';
import { ContextMenu } from './ui/ContextMenu';
import { Dialogs } from './ui/Dialogs';
import { NoticeArea } from './ui/NoticeArea';
import { PanelResizer, usePanelSizes } from './ui/PanelResizers';
import { PartTree } from './ui/PartTree';
import { PlacementPanel } from './ui/PlacementPanel';
import { ProgressBar } from './ui/ProgressBar';
import { ResultsPanel } from './ui/ResultsPanel';
import { StatusBar } from './ui/StatusBar';
import { Toolbar } from './ui/Toolbar';
import { useShortcuts } from './ui/useShortcuts';
import { ViewToolbar } from './ui/ViewToolbar';
import { useDocumentTitle } from './ui/useDocumentTitle';
import { useFileHandoff } from './ui/useFileHandoff';

export function App() {
  useShortcuts();
  useDocumentTitle();
  useFileHandoff();
  const app = useRef<HTMLDivElement>(null);
  const sizes = usePanelSizes(app);
  return (
    <div className="app" ref={app}>
      <Toolbar />
      <aside className="left-panel">
        <PartTree />
        <PlacementPanel />
        <PanelResizer which="left" app={app} sizes={sizes} />
      </aside>
      <main className="center">
        <Viewport />
        <ViewToolbar />
        <ProgressBar />
        <NoticeArea />
      </main>
      <section className="bottom-panel">
        <PanelResizer which="results" app={app} sizes={sizes} />
        <ResultsPanel />
      </section>
      <StatusBar />
      <ContextMenu />
      <Dialogs />
    </div>
  );
}

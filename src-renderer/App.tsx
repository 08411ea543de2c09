/**
 * The main window: toolbar on top, part tree and the selected part's placement on the left, the
 * 3D viewport in the centre with the results below it, a status bar, messages over the viewport,
 * and the context menu and dialogs over everything.
 */
import { Viewport } from './scene/Viewport';
import { ContextMenu } from './ui/ContextMenu';
import { Dialogs } from './ui/Dialogs';
import { NoticeArea } from './ui/NoticeArea';
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
  return (
    <div className="app">
      <Toolbar />
      <aside className="left-panel">
        <PartTree />
        <PlacementPanel />
      </aside>
      <main className="center">
        <Viewport />
        <ViewToolbar />
        <ProgressBar />
        <NoticeArea />
      </main>
      <section className="bottom-panel">
        <ResultsPanel />
      </section>
      <StatusBar />
      <ContextMenu />
      <Dialogs />
    </div>
  );
}

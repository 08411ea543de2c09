/** View controls over the viewport: fit, standard views, projection. */
import { useApp } from '../appStore';
import { CommandButton } from './Toolbar';

export function ViewToolbar() {
  const hasDoc = useApp((s) => s.doc !== null);
  const projection = useApp((s) => s.projection);
  return (
    <div className="view-toolbar" role="toolbar" aria-label="View">
      <CommandButton command="view.fitAll" label="Fit all" title="Fit all in view (F)" disabled={!hasDoc} testId="view-fit" />
      <CommandButton command="view.fitSelection" label="Fit selection" title="Fit the selected parts in view (S, or double-click)" disabled={!hasDoc} />
      <span className="separator" aria-hidden="true" />
      <CommandButton command="view.front" label="Front" title="Front view (1)" disabled={!hasDoc} />
      <CommandButton command="view.top" label="Top" title="Top view (7)" disabled={!hasDoc} />
      <CommandButton command="view.right" label="Right" title="Right view (3)" disabled={!hasDoc} />
      <CommandButton command="view.iso" label="Iso" title="Isometric view (0)" disabled={!hasDoc} />
      <span className="separator" aria-hidden="true" />
      <CommandButton
        command="view.toggleProjection"
        label={projection === 'perspective' ? 'Perspective' : 'Orthographic'}
        title="Switch between perspective and orthographic projection (P)"
        pressed={projection === 'orthographic'}
        testId="view-projection"
      />
    </div>
  );
}

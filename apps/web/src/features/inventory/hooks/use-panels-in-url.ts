import type { Container } from '@haversack/contracts';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { PanelSide, PanelState, PanelTab, ViewMode } from '../workspace-types';

const panelTabs: readonly PanelTab[] = ['container', 'shop', 'loot', 'market'];
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const sides: readonly PanelSide[] = ['left', 'right'];

/** `tab.container.shopOrLoot`: dots, unlike colons, stay readable in an address. */
export function panelToParam(panel: PanelState): string {
  const chosen = panel.tab === 'shop' ? panel.shopId : panel.tab === 'loot' ? panel.lootId : null;
  return [panel.tab, panel.containerId ?? '', chosen ?? ''].join('.').replace(/\.+$/, '');
}

/**
 * The panel an address asks for, or null when it asks for nothing usable: a container must be one the
 * workspace offers (a link kept after a container was deleted, or shared with someone who cannot see it,
 * opens the page's own choice); a shop or loot is only an id, its tab says when it is gone.
 */
export function panelFromParam(value: string | null, containers: Container[]): PanelState | null {
  if (!value) return null;
  const [tab, containerId = '', chosen = ''] = value.split('.');
  if (!panelTabs.includes(tab as PanelTab)) return null;
  const offered = containers.some((container) => container.id === containerId);
  if (tab === 'container' && !offered) return null;
  const panel: PanelState = { tab: tab as PanelTab, containerId: offered ? containerId : null };
  const chosenId = uuidPattern.test(chosen) ? chosen : null;
  if (tab === 'shop') panel.shopId = chosenId;
  if (tab === 'loot') panel.lootId = chosenId;
  return panel;
}

/**
 * The workspace's two panels and its view, kept in the page's address (?left, ?right, ?view), so that a
 * reload, the Back button or a shared link opens the same sources and tabs. What the page opens on by
 * itself stays out of the address. The address is replaced, not pushed: choosing a source is not a page.
 */
export function usePanelsInUrl(
  containers: Container[],
  initial: Record<PanelSide, PanelState>,
  initialView: ViewMode,
) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [panels, setPanels] = useState<Record<PanelSide, PanelState>>(() => ({
    left: panelFromParam(searchParams.get('left'), containers) ?? initial.left,
    right: panelFromParam(searchParams.get('right'), containers) ?? initial.right,
  }));
  const [viewMode, setViewMode] = useState<ViewMode>(() => {
    const asked = searchParams.get('view');
    return asked === 'single' || asked === 'dual' ? asked : initialView;
  });

  const wanted = {
    left: panelToParam(panels.left),
    right: panelToParam(panels.right),
    view: viewMode,
  };
  const defaults = {
    left: panelToParam(initial.left),
    right: panelToParam(initial.right),
    view: initialView,
  };
  const differs = (['left', 'right', 'view'] as const).some(
    (key) => (searchParams.get(key) ?? defaults[key]) !== wanted[key],
  );
  useEffect(() => {
    if (!differs) return;
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of [...sides, 'view'] as const) {
          if (wanted[key] === defaults[key]) next.delete(key);
          else next.set(key, wanted[key]);
        }
        return next;
      },
      { replace: true },
    );
  });

  return { panels, setPanels, viewMode, setViewMode };
}

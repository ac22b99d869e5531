// The account's saved designs, for the design library: read once for an editor, kept in step
// with what the library saves and deletes.
import { useEffect, useState } from 'preact/hooks';
import type { QrDesign } from '../../../src/domain/design/design-schema.ts';
import { api, type SavedDesign } from '../../api.ts';

export interface SavedDesigns {
  /** null while they are read. */
  designs: SavedDesign[] | null;
  save(name: string, design: QrDesign): Promise<void>;
  remove(id: string): Promise<void>;
}

export function useSavedDesigns(mayEdit: boolean): SavedDesigns {
  const [designs, setDesigns] = useState<SavedDesign[] | null>(null);
  useEffect(() => {
    if (!mayEdit) return;
    api.listDesigns().then(setDesigns, () => setDesigns([]));
  }, [mayEdit]);
  return {
    designs,
    save: async (name, design) => {
      const created = await api.createDesign(name, design);
      setDesigns([created, ...(designs ?? [])]);
    },
    remove: async (id) => {
      await api.deleteDesign(id);
      setDesigns((designs ?? []).filter((d) => d.id !== id));
    },
  };
}

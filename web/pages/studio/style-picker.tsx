// Pickers that show what each choice draws: a radio group (arrow keys move between choices, a
// screen reader hears "Rounded, radio, 3 of 6") whose options are thumbnails drawn by the
// preview's own renderer from the current design, with a plain word under each.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { QrDesign } from '../../../src/domain/design/design-schema.ts';
import type { ThumbnailView } from './browser-renderer.ts';
import { type loadRenderer, loadRendererSoon, svgDataUrl } from './preview-panel.tsx';

type Renderer = Awaited<ReturnType<typeof loadRenderer>>;

/** The renderer once its chunk is in (the studio loads it on mount, or after its first scan check); null until then. */
function useRenderer(): Renderer | null {
  const [renderer, setRenderer] = useState<Renderer | null>(null);
  useEffect(() => {
    let live = true;
    void loadRendererSoon().then((r) => live && setRenderer(() => r));
    return () => {
      live = false;
    };
  }, []);
  return renderer;
}

/**
 * One thumbnail per option: `design` with `field` set to the option. Drawn again only when
 * something the thumbnails show changes (not the logo, frame text, size or the field itself).
 */
function useThumbnails<K extends keyof QrDesign>(
  design: QrDesign,
  field: K,
  options: readonly QrDesign[K][],
  view: ThumbnailView,
): Map<QrDesign[K], string> | null {
  const renderer = useRenderer();
  /** The last thumbnails drawn: a colour half typed keeps them instead of blanking the picker. */
  const last = useRef<Map<QrDesign[K], string> | null>(null);
  const shown: QrDesign = { ...design, customLogoUrl: null, presetLogo: 'none', frameText: '', resolution: 1000, [field]: options[0] };
  const key = JSON.stringify(shown);
  return useMemo(() => {
    if (!renderer || renderer.checkDesign(shown) !== null) return last.current;
    const thumbs = new Map<QrDesign[K], string>();
    try {
      for (const option of options) thumbs.set(option, svgDataUrl(renderer.styleThumbnail({ ...shown, [field]: option }, view)));
    } catch {
      return last.current;
    }
    last.current = thumbs;
    return thumbs;
  }, [renderer, key]);
}

interface StylePickerProps<K extends keyof QrDesign> {
  design: QrDesign;
  field: K & string;
  label: string;
  options: readonly QrDesign[K][];
  /** The plain word for each option, shown under its thumbnail and read as its name. */
  words: Record<QrDesign[K] & string, string>;
  view: ThumbnailView;
  onChange: (value: QrDesign[K]) => void;
}

export function StylePicker<K extends keyof QrDesign>({ design, field, label, options, words, view, onChange }: StylePickerProps<K>) {
  const thumbs = useThumbnails(design, field, options, view);
  const id = `d-${field}`;
  const current = design[field];
  return (
    <fieldset class={`field style-picker style-picker--${view}`} id={id}>
      <legend>{label}</legend>
      <div class="style-picker__options">
        {options.map((option) => {
          const name = words[option as QrDesign[K] & string];
          const thumb = thumbs?.get(option);
          return (
            <label class="style-picker__option" key={String(option)}>
              <input
                type="radio"
                class="style-picker__input"
                name={field}
                id={`${id}-${String(option)}`}
                value={String(option)}
                checked={option === current}
                onChange={() => onChange(option)}
              />
              <span class="style-picker__thumb" aria-hidden="true">
                {thumb ? <img src={thumb} alt="" /> : null}
              </span>
              <span class="style-picker__word">{name}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

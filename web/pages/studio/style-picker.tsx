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
 * What a thumbnail of `view` draws of `design`: the fields it cannot show set to one value, so
 * that a change the thumbnails do not show (a dot style for the corners' crop, which holds the eye
 * and its light border only; a corner style for the dots' crop) does not redraw them.
 */
function shownBy(design: QrDesign, view: ThumbnailView): QrDesign {
  const shown: QrDesign = { ...design, customLogoUrl: null, presetLogo: 'none', frameText: '', resolution: 1000 };
  if (view === 'whole') return shown;
  const unframed: QrDesign = {
    ...shown,
    frameStyle: 'none',
    frameColor: '#000000',
    frameTextColor: '#000000',
    logoSize: 0.1,
    logoMargin: 0,
  };
  return view === 'eye'
    ? { ...unframed, dotsStyle: 'square', hideDotsBehindLogo: false }
    : { ...unframed, cornerSquare: 'square', cornerDot: 'square', customEyeColors: false, eyeColor: '#000000' };
}

/**
 * One thumbnail per option: `design` with `field` set to the option. Drawn again only when
 * something the thumbnails show changes (shownBy). Whole-code thumbnails (the frames) redraw
 * after the change has been painted, not in its update: four whole codes are most of a redraw's
 * cost, and the preview the person is watching goes first.
 */
function useThumbnails<K extends keyof QrDesign>(
  design: QrDesign,
  field: K,
  options: readonly QrDesign[K][],
  view: ThumbnailView,
): Map<QrDesign[K], string> | null {
  const renderer = useRenderer();
  const shown: QrDesign = { ...shownBy(design, view), [field]: options[0] };
  const key = JSON.stringify(shown);
  /**
   * The last thumbnails drawn, whichever way (in the update, or after it): a colour half typed
   * keeps them instead of blanking the picker. A ref, re-rendered by `drawn` when they come later.
   */
  const last = useRef<{ key: string; thumbs: Map<QrDesign[K], string> } | null>(null);
  const [, drawn] = useState(0);
  const draw = (): Map<QrDesign[K], string> | null => {
    if (!renderer || renderer.checkDesign(shown) !== null) return null;
    const out = new Map<QrDesign[K], string>();
    try {
      for (const option of options) out.set(option, svgDataUrl(renderer.styleThumbnail({ ...shown, [field]: option }, view)));
    } catch {
      return null;
    }
    return out;
  };
  const deferred = view === 'whole';
  // Cropped thumbnails are drawn in the update itself (a few small SVGs), so they never lag.
  const now = useMemo(() => (deferred ? null : draw()), [renderer, key]);
  if (now) last.current = { key, thumbs: now };
  useEffect(() => {
    if (!deferred || last.current?.key === key) return;
    const job = requestIdleCallback(
      () => {
        const thumbs = draw();
        if (!thumbs) return;
        last.current = { key, thumbs };
        drawn((n) => n + 1);
      },
      { timeout: 1000 },
    );
    return () => cancelIdleCallback(job);
  }, [renderer, key]);
  return last.current?.thumbs ?? null;
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

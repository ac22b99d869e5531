// The preset logos: simple line icons of our own, on a 24×24 grid, drawn with a
// 2-unit round stroke. `dots` are filled circles (wifi's source point, the pin's hole).
import type { PresetLogo } from '../domain/design/design.ts';

export interface PresetIcon {
  /** Stroked outline. */
  stroke: string;
  /** Filled parts, may be empty. */
  fill: string;
}

const ICONS: Record<Exclude<PresetLogo, 'none'>, PresetIcon> = {
  // Two interlocking chain links at 45°.
  link: {
    stroke:
      'M10.6 13.4a3.5 3.5 0 0 0 4.9 0l3-3a3.5 3.5 0 0 0-4.9-4.9l-1.2 1.2M13.4 10.6a3.5 3.5 0 0 0-4.9 0l-3 3a3.5 3.5 0 0 0 4.9 4.9l1.2-1.2',
    fill: '',
  },
  // Three arcs over a dot.
  wifi: {
    stroke: 'M3.5 9.5a12 12 0 0 1 17 0M6.4 12.6a8 8 0 0 1 11.2 0M9.2 15.6a4 4 0 0 1 5.6 0',
    fill: 'M12 17.2a1.6 1.6 0 1 1 0 3.2a1.6 1.6 0 1 1 0-3.2z',
  },
  // Envelope with its flap.
  email: {
    stroke: 'M5 5.5h14a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-9a2 2 0 0 1 2-2zM3.5 7l8.5 6l8.5-6',
    fill: '',
  },
  // Telephone handset.
  phone: {
    stroke: 'M6.2 3.5h2.6l1.5 4.2l-2 1.4a11 11 0 0 0 6.6 6.6l1.4-2l4.2 1.5v2.6a2 2 0 0 1-2.2 2A16.5 16.5 0 0 1 4.2 5.7a2 2 0 0 1 2-2.2z',
    fill: '',
  },
  // Speech bubble with a small handset inside.
  whatsapp: {
    stroke: 'M12 3.2a8.8 8.8 0 0 0-7.6 13.2L3.2 20.8l4.5-1.2A8.8 8.8 0 1 0 12 3.2z',
    fill: 'M9.3 7.6h1l.9 2.2l-.9.8a5 5 0 0 0 3.1 3.1l.8-.9l2.2.9v1a1.2 1.2 0 0 1-1.3 1.2A7.4 7.4 0 0 1 8.1 8.9a1.2 1.2 0 0 1 1.2-1.3z',
  },
  // Contact card: head, shoulders and two lines of text.
  vcard: {
    stroke: 'M4 5h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2zM5.5 16a3 3 0 0 1 5 0M14 10h4M14 14h3',
    fill: 'M8 8.2a2 2 0 1 1 0 4a2 2 0 1 1 0-4z',
  },
  // Lines of text.
  text: {
    stroke: 'M5 6h14M5 10h14M5 14h14M5 18h8',
    fill: '',
  },
  // Map pin with a hole.
  location: {
    stroke: 'M12 21.5s-6.5-5.8-6.5-11.2a6.5 6.5 0 0 1 13 0c0 5.4-6.5 11.2-6.5 11.2zM12 7.8a2.5 2.5 0 1 1 0 5a2.5 2.5 0 1 1 0-5z',
    fill: '',
  },
};

export function presetIcon(name: Exclude<PresetLogo, 'none'>): PresetIcon {
  return ICONS[name];
}

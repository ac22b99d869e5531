// The design panel: every one of the 23 options, grouped as people think of them (Dub's
// design fields are the model). Each group is a disclosure, so a phone shows one at a time.
import type { ComponentChildren, JSX } from 'preact';
import { inspectLogo } from './logo-pixels.ts';
import { useState } from 'preact/hooks';
import {
  CORNER_STYLES,
  DOT_STYLES,
  ERROR_CORRECTION_LEVELS,
  FRAME_STYLES,
  GRADIENT_TYPES,
  LIMITS,
  PRESET_LOGOS,
  type QrDesign,
} from '../../../src/domain/design/design-schema.ts';
import { FieldError, describedBy } from '../../components/field.tsx';
import { ChoiceControl, ColorControl, RangeControl, TextControl, ToggleControl } from './design-controls.tsx';
import { StylePicker } from './style-picker.tsx';

export interface GroupProps {
  design: QrDesign;
  set: (patch: Partial<QrDesign>) => void;
  /** Design field → message, from the same checks as the API. */
  errors: Partial<Record<keyof QrDesign, string>>;
}

function Group({ id, title, children, open }: { id: string; title: string; children: ComponentChildren; open?: boolean }) {
  return (
    <details class="design-group" id={`group-${id}`} open={open}>
      <summary>{title}</summary>
      <div class="design-group__body">{children}</div>
    </details>
  );
}

/** Plain words for the styles' internal names (the API's values stay as they are). */
const DOT_WORDS = {
  square: 'Square',
  dots: 'Round dots',
  rounded: 'Rounded',
  'extra-rounded': 'Very rounded',
  classy: 'Leaf',
  'classy-rounded': 'Soft leaf',
} as const;
const CORNER_WORDS = {
  square: 'Square',
  dot: 'Round',
  'extra-rounded': 'Rounded',
  classy: 'Leaf',
  'classy-rounded': 'Soft leaf',
} as const;
const FRAME_WORDS = { none: 'No frame', 'bottom-banner': 'Banner below', phone: 'Phone', badge: 'Label on top' } as const;

const ECC_LABELS = { L: 'L — restores 7 %', M: 'M — restores 15 %', Q: 'Q — restores 25 %', H: 'H — restores 30 %' } as const;

export function DotsGroup({ design, set }: GroupProps) {
  return (
    <Group id="dots" title="Dots" open>
      <StylePicker
        design={design}
        field="dotsStyle"
        label="Dot style"
        options={DOT_STYLES}
        words={DOT_WORDS}
        view="dots"
        onChange={(dotsStyle) => set({ dotsStyle })}
      />
    </Group>
  );
}

export function CornerSquaresGroup({ design, set }: GroupProps) {
  return (
    <Group id="corner-squares" title="Corner squares">
      <StylePicker
        design={design}
        field="cornerSquare"
        label="Corner square style"
        options={CORNER_STYLES}
        words={CORNER_WORDS}
        view="eye"
        onChange={(cornerSquare) => set({ cornerSquare })}
      />
    </Group>
  );
}

export function CornerDotsGroup({ design, set }: GroupProps) {
  return (
    <Group id="corner-dots" title="Corner dots">
      <StylePicker
        design={design}
        field="cornerDot"
        label="Corner dot style"
        options={CORNER_STYLES}
        words={CORNER_WORDS}
        view="eye"
        onChange={(cornerDot) => set({ cornerDot })}
      />
    </Group>
  );
}

export function ColoursGroup({ design, set, errors }: GroupProps) {
  return (
    <Group id="colours" title="Colours and gradient">
      <ColorControl
        name="color1"
        label={design.isGradient ? 'First gradient colour' : 'Code colour'}
        value={design.color1}
        error={errors.color1}
        onChange={(color1) => set({ color1 })}
      />
      <ToggleControl name="isGradient" label="Gradient" checked={design.isGradient} onChange={(isGradient) => set({ isGradient })} />
      {design.isGradient ? (
        <>
          <ColorControl
            name="color2"
            label="Second gradient colour"
            value={design.color2}
            error={errors.color2}
            onChange={(color2) => set({ color2 })}
          />
          <ChoiceControl
            name="gradientType"
            label="Gradient type"
            value={design.gradientType}
            options={GRADIENT_TYPES}
            onChange={(gradientType) => set({ gradientType })}
          />
          <RangeControl
            name="gradientRotation"
            label="Gradient rotation"
            unit="°"
            value={design.gradientRotation}
            {...LIMITS.gradientRotation}
            step={1}
            error={errors.gradientRotation}
            onChange={(gradientRotation) => set({ gradientRotation })}
          />
        </>
      ) : null}
    </Group>
  );
}

export function BackgroundGroup({ design, set, errors }: GroupProps) {
  return (
    <Group id="background" title="Background">
      <ToggleControl
        name="bgTransparent"
        label="Transparent background"
        checked={design.bgTransparent}
        onChange={(bgTransparent) => set({ bgTransparent })}
      />
      <ColorControl
        name="bgColor"
        label="Background colour"
        value={design.bgColor}
        disabled={design.bgTransparent}
        error={errors.bgColor}
        onChange={(bgColor) => set({ bgColor })}
      />
    </Group>
  );
}

export function EyeGroup({ design, set, errors }: GroupProps) {
  return (
    <Group id="eyes" title="Eye colour">
      <ToggleControl
        name="customEyeColors"
        label="Own colour for the three corner eyes"
        checked={design.customEyeColors}
        onChange={(customEyeColors) => set({ customEyeColors })}
      />
      {design.customEyeColors ? (
        <ColorControl
          name="eyeColor"
          label="Eye colour"
          value={design.eyeColor}
          error={errors.eyeColor}
          onChange={(eyeColor) => set({ eyeColor })}
        />
      ) : null}
    </Group>
  );
}

export function LogoGroup({ design, set, errors }: GroupProps) {
  // The input is emptied after each upload (so the same file can be chosen again), so it
  // cannot show the name itself: the name is kept with the data URL it was read into.
  const [chosen, setChosen] = useState<{ name: string; url: string } | null>(null);
  const upload = (e: JSX.TargetedEvent<HTMLInputElement>) => {
    const file = e.currentTarget.files?.[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = async () => {
      const url = String(reader.result);
      // Checked before it enters the design, so the preview refuses a logo the API would.
      await inspectLogo(file, url);
      setChosen({ name: file.name, url });
      set({ customLogoUrl: url, presetLogo: 'none' });
    };
    reader.readAsDataURL(file);
    e.currentTarget.value = '';
  };
  const hasLogo = design.customLogoUrl !== null || design.presetLogo !== 'none';
  return (
    <Group id="logo" title="Logo">
      <ChoiceControl
        name="presetLogo"
        label="Preset icon"
        value={design.presetLogo}
        options={PRESET_LOGOS}
        disabled={design.customLogoUrl !== null}
        onChange={(presetLogo) => set({ presetLogo })}
      />
      <div class={`field${errors.customLogoUrl ? ' field--invalid' : ''}`}>
        <label for="d-customLogoUrl">Your own logo</label>
        <p class="hint" id="d-customLogoUrl-hint">
          PNG, JPEG, WebP or SVG, at most 512 KiB; replaces the preset icon
        </p>
        <div class="logo-file">
          <label class="btn btn--secondary file-button">
            {design.customLogoUrl === null ? 'Choose a file' : 'Choose another file'}
            <input
              id="d-customLogoUrl"
              type="file"
              class="visually-hidden"
              accept="image/png,image/jpeg,image/webp,image/svg+xml"
              aria-describedby={`${describedBy('d-customLogoUrl', true, errors.customLogoUrl) ?? ''} d-customLogoUrl-state`}
              onChange={upload}
            />
          </label>
          <span id="d-customLogoUrl-state" class="logo-file__state">
            {design.customLogoUrl === null
              ? 'No logo of your own'
              : chosen?.url === design.customLogoUrl
                ? `Using “${chosen.name}”`
                : 'Your own logo is set'}
          </span>
          {design.customLogoUrl !== null ? (
            <button type="button" class="btn btn--link" onClick={() => set({ customLogoUrl: null })}>
              Remove your logo
            </button>
          ) : null}
        </div>
        <FieldError id="d-customLogoUrl" error={errors.customLogoUrl} />
      </div>
      <LogoSize design={design} set={set} errors={errors} disabled={!hasLogo} />
      <RangeControl
        name="logoMargin"
        label="Logo margin"
        unit=" px"
        value={design.logoMargin}
        {...LIMITS.logoMargin}
        step={1}
        disabled={!hasLogo}
        error={errors.logoMargin}
        onChange={(logoMargin) => set({ logoMargin })}
      />
      <ToggleControl
        name="hideDotsBehindLogo"
        label="Hide the dots behind the logo"
        checked={design.hideDotsBehindLogo}
        disabled={!hasLogo}
        onChange={(hideDotsBehindLogo) => set({ hideDotsBehindLogo })}
      />
    </Group>
  );
}

/** The logo's size in words: small to large, with the exact share still settable. */
const LOGO_SIZES = [
  ['Small', 0.2],
  ['Medium', 0.3],
  ['Large', 0.4],
] as const;

function LogoSize({ design, set, errors, disabled }: GroupProps & { disabled: boolean }) {
  return (
    <fieldset class="field logo-size" disabled={disabled}>
      <legend>Logo size</legend>
      <div class="size-words">
        {LOGO_SIZES.map(([word, size]) => (
          <label class="choice-chip" key={word}>
            <input type="radio" name="logoSizeWord" checked={design.logoSize === size} onChange={() => set({ logoSize: size })} />
            <span>{word}</span>
          </label>
        ))}
      </div>
      <RangeControl
        name="logoSize"
        label="Exact logo size"
        hint={`${LIMITS.logoSize.min} (smallest) to ${LIMITS.logoSize.max} (largest). A logo hides part of the code and phones rebuild what it hides, up to a limit: 0.5 takes half of that limit, the most allowed, so that the code still scans.`}
        value={design.logoSize}
        {...LIMITS.logoSize}
        step={0.05}
        disabled={disabled}
        error={errors.logoSize}
        onChange={(logoSize) => set({ logoSize })}
      />
    </fieldset>
  );
}

export function FrameGroup({ design, set, errors }: GroupProps) {
  const framed = design.frameStyle !== 'none';
  return (
    <Group id="frame" title="Frame">
      <StylePicker
        design={design}
        field="frameStyle"
        label="Frame style"
        options={FRAME_STYLES}
        words={FRAME_WORDS}
        view="whole"
        onChange={(frameStyle) => set({ frameStyle })}
      />
      <TextControl
        name="frameText"
        label="Frame text"
        value={design.frameText}
        maxLength={LIMITS.frameText.maxLength}
        disabled={!framed}
        error={errors.frameText}
        onChange={(frameText) => set({ frameText })}
      />
      <ColorControl
        name="frameColor"
        label="Frame colour"
        value={design.frameColor}
        disabled={!framed}
        error={errors.frameColor}
        onChange={(frameColor) => set({ frameColor })}
      />
      <ColorControl
        name="frameTextColor"
        label="Frame text colour"
        value={design.frameTextColor}
        disabled={!framed}
        error={errors.frameTextColor}
        onChange={(frameTextColor) => set({ frameTextColor })}
      />
    </Group>
  );
}

export function OutputGroup({ design, set, errors }: GroupProps) {
  return (
    <Group id="output" title="Error correction and resolution">
      <ChoiceControl
        name="errorCorrectionLevel"
        label="Error correction"
        value={design.errorCorrectionLevel}
        options={ERROR_CORRECTION_LEVELS}
        labels={ECC_LABELS}
        onChange={(errorCorrectionLevel) => set({ errorCorrectionLevel })}
      />
      <RangeControl
        name="resolution"
        label="Resolution (image width)"
        unit=" px"
        value={design.resolution}
        {...LIMITS.resolution}
        step={1}
        error={errors.resolution}
        onChange={(resolution) => set({ resolution })}
      />
    </Group>
  );
}

export function DesignPanel(props: GroupProps) {
  return (
    <div class="design-panel">
      <DotsGroup {...props} />
      <CornerSquaresGroup {...props} />
      <CornerDotsGroup {...props} />
      <ColoursGroup {...props} />
      <BackgroundGroup {...props} />
      <EyeGroup {...props} />
      <LogoGroup {...props} />
      <FrameGroup {...props} />
      <OutputGroup {...props} />
    </div>
  );
}

/**
 * Slider (docs/product.md §2.12): the stored images with a preview and Remove, and upload slots (two empty to
 * begin with, as the spec's) whose chosen files preview at once and are saved together. Files are
 * read as base64 without the data-URL prefix; type and size are checked here first and by their
 * bytes on the platform. Stored images show through the console's own route (the token stays there).
 */
import { useFetcher } from "@remix-run/react";
import { useState, type ChangeEvent } from "react";
import { notifyError, type Outcome } from "../../lib/feedback";
import { SETTING_BOUNDS } from "../../../protocol/rules";
import { sliderFileProblem } from "../../lib/forms/settings";
import { useAnnouncedOutcome } from "../../lib/use-announced-outcome";
import { useLack } from "../ui/shell-context";

type Slot = { key: number; file?: { name: string; image: string; ext: string; preview: string } };

const INITIAL_SLOTS = 2;

/** The file's bytes as plain base64, and a data URL to preview it. */
function readImage(file: File): Promise<{ image: string; preview: string }> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const preview = String(reader.result);
      resolve({ preview, image: preview.slice(preview.indexOf(",") + 1) });
    };
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

const emptySlots = () => Array.from({ length: INITIAL_SLOTS }, (_, key) => ({ key }));

export function SliderScreen({ images }: { images: ReadonlyArray<{ _id: string; src: string }> }) {
  const upload = useFetcher<Outcome>();
  const remove = useFetcher<Outcome>();
  const [slots, setSlots] = useState<Slot[]>(emptySlots);
  useAnnouncedOutcome(upload.data, () => setSlots(emptySlots()));
  useAnnouncedOutcome(remove.data);
  const chosen = slots.flatMap((slot) => (slot.file ? [slot.file] : []));
  // Removal is an extension call: an API without it keeps the images, and Remove says why.
  const removeLack = useLack("removeSlider");

  const choose = (key: number) => async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const problem = sliderFileProblem(file);
    if (problem) {
      event.target.value = "";
      notifyError(problem);
      return;
    }
    const read = await readImage(file);
    const ext = file.name.split(".").pop()?.toLowerCase() ?? "";
    setSlots((current) => current.map((slot) => (slot.key === key ? { key, file: { name: file.name, ext, ...read } } : slot)));
  };

  const save = () =>
    upload.submit(
      { intent: "upload", images: chosen.map(({ image, ext }) => ({ image, ext })) },
      { method: "post", encType: "application/json" },
    );

  return (
    <>
      <section aria-labelledby="slider-stored">
        <h3 id="slider-stored">Slider images</h3>
        {removeLack && <p className="dim">{removeLack}</p>}
        <ul className="slider-slots">
          {images.map((image, index) => (
            <li key={image._id}>
              <img src={image.src} alt={`Slider image ${index + 1}`} />
              <remove.Form method="post">
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="id" value={image._id} />
                <button type="submit" aria-label={`Remove slider image ${index + 1}`} disabled={remove.state !== "idle" || removeLack !== null}>
                  Remove
                </button>
              </remove.Form>
            </li>
          ))}
          {images.length === 0 && <li className="dim">No slider images yet</li>}
        </ul>
      </section>
      <section aria-labelledby="slider-upload">
        <h3 id="slider-upload">Upload</h3>
        <ul className="slider-slots">
          {slots.map((slot, index) => (
            <li key={slot.key}>
              <label>
                {`Slot ${index + 1}`}
                <input type="file" accept={SETTING_BOUNDS.sliderTypes.join(",")} onChange={choose(slot.key)} />
              </label>
              {slot.file && <img src={slot.file.preview} alt={`Preview of ${slot.file.name}`} />}
              <button
                type="button"
                aria-label={`Remove slot ${index + 1}`}
                disabled={slots.length === 1}
                onClick={() => setSlots((current) => current.filter((other) => other.key !== slot.key))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          disabled={slots.length >= SETTING_BOUNDS.sliderImagesPerCall}
          onClick={() => setSlots((current) => [...current, { key: Math.max(-1, ...current.map((slot) => slot.key)) + 1 }])}
        >
          Add slot
        </button>{" "}
        <button type="button" disabled={chosen.length === 0 || upload.state !== "idle"} onClick={save}>
          {upload.state !== "idle" ? "Saving…" : "Save"}
        </button>
      </section>
    </>
  );
}

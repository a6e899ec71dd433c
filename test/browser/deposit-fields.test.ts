// The whole deposit form in a real browser: a draft made through the REST API with every metadata
// field and custom field filled shows each value in the form, and saving the form unchanged
// changes nothing; a person fills every field by its label (look-ups with the keyboard, schemes
// detected as typed, a custom licence chosen explicitly) and publishes, and the record's metadata
// is what they entered; the embargo's date stays out of reach until the embargo is ticked. The
// page passes axe and html-validate at 1280 and 390 px wide.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { expectStatus } from "../helpers/app";
import { htmlErrors, seriousAxeViolations, signIn, startBrowserApp, type BrowserApp } from "../helpers/browser";
import { DIRECTORY_ENTRIES, RICH_CUSTOM_FIELDS, RICH_METADATA } from "../helpers/export-samples";

let app: BrowserApp;
beforeAll(async () => {
  app = await startBrowserApp();
  for (const [type, entry] of DIRECTORY_ENTRIES) expectStatus(await app.call("POST", `/api/${type}`, { as: "admin", body: entry }), 201);
});
afterAll(() => app.stop());

const WIDTHS = [1280, 390];

/** Valid markup as served, no serious accessibility violations as the page stands, no sideways scrolling. */
async function checkPage(page: Page, html: string) {
  expect(await htmlErrors(html)).toEqual([]);
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
}

async function signedIn(width: number, next: string) {
  const person = await app.newPerson();
  const page = await person.newPage();
  await page.setViewportSize({ width, height: 900 });
  await signIn(page, "alice", "alice-password", next);
  return { person, page };
}

const group = (page: Page, name: string) => page.getByRole("group", { name, exact: true });

/**
 * Every control's value as a person reads it, in one look at the page (a loaded machine makes
 * each round trip slow): keyed by its label, prefixed with its row's legend ("Creator 1 › Role");
 * a select by its chosen option's text; a chip list ("Licences") by its chips' texts.
 */
const formValues = (page: Page): Promise<Record<string, string>> =>
  page.evaluate(`(() => {
    const out = {};
    const keyOf = (el, name) => {
      const legend = el.closest("li.row")?.querySelector("legend")?.textContent;
      return legend ? legend + " › " + name : name;
    };
    for (const label of document.querySelectorAll("#deposit label[for]")) {
      const control = document.getElementById(label.getAttribute("for"));
      if (!control || control.closest(".chips-field")) continue;
      out[keyOf(label, label.textContent)] = control.tagName === "SELECT" ? (control.selectedOptions[0]?.textContent ?? "") : control.value;
    }
    for (const list of document.querySelectorAll("#deposit ul.chip-list")) {
      out[keyOf(list, list.getAttribute("aria-label"))] = [...list.children].map((li) => li.firstChild.textContent).join(" | ");
    }
    return out;
  })()`);

/** Opens a folded part of the form by its heading. */
async function unfold(page: Page, heading: string) {
  const part = page.locator("details").filter({ has: page.getByRole("heading", { name: heading, exact: true }) });
  if (!(await part.getAttribute("open").then((open) => open !== null))) await part.locator("summary").click();
}

/** Types into a look-up and takes the highlighted (first) suggestion with Enter. */
async function enterPick(input: Locator, typed: string, expected: RegExp) {
  await input.fill(typed);
  const box = input.locator("xpath=following-sibling::ul[contains(@class, 'suggestions')]");
  await expect(box.locator("button.active").textContent({ timeout: 15_000 })).resolves.toMatch(expected);
  // What the person types and the suggestion Enter takes are in sight, not under the form's sticky
  // bar (one look: each locator's resolution is slow on a form this large).
  const hidden = await input.evaluate((field) => {
    let list = field.nextElementSibling;
    while (list && !list.classList.contains("suggestions")) list = list.nextElementSibling;
    const active = list!.querySelector("button.active")!;
    return [field, active]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        const hit = el.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit === null || !el.contains(hit);
      })
      .map((el) => el.textContent || el.tagName);
  });
  expect(hidden).toEqual([]);
  await input.press("Enter");
}

const draftOf = async (id: string) => {
  const res = await app.call("GET", `/api/records/${id}/draft`, { as: "alice" });
  expectStatus(res, 200);
  return res.json;
};

describe("a draft with every field", () => {
  for (const width of WIDTHS) {
    test(`shows every value, and saving it unchanged changes nothing (${width} px)`, async () => {
      const body = { access: { record: "public", files: "public" }, files: { enabled: false }, metadata: RICH_METADATA, custom_fields: RICH_CUSTOM_FIELDS };
      const created = await app.call("POST", "/api/records", { as: "alice", body });
      expectStatus(created, 201);
      const before = await draftOf(created.json.id);
      const { person, page } = await signedIn(width, `/uploads/${created.json.id}`);
      const html = await (await page.goto(`/uploads/${created.json.id}`))!.text();
      await page.getByRole("group", { name: "Creator 1" }).waitFor();
      await checkPage(page, html);

      const shown = await formValues(page);
      expect(shown).toMatchObject({
        // Basic information
        "Resource type (required)": "Publication: Journal article",
        "Title (required)": RICH_METADATA.title,
        "Additional title 1 › Additional title": "A subtitle",
        "Additional title 1 › Title type": "Subtitle",
        "Additional title 1 › Title language": "English",
        "Publication date (required)": "2024-05-17",
        "Creator 1 › Given name": "Jane",
        "Creator 1 › Family name": "Doe-Müller",
        "Creator 1 › ORCID (a person) or ROR id (an organisation)": "0000-0002-1825-0097",
        "Creator 1 › Role": "Data collector",
        "Creator 1 › Affiliations": "CERN | Free University",
        "Creator 2 › Type": "Organisation",
        "Creator 2 › Organisation name": "ACME Lab",
        "Creator 2 › ORCID (a person) or ROR id (an organisation)": "01ggx4157",
        Description: RICH_METADATA.description,
        "Additional description 1 › Additional description": "<h2>Methods</h2>We measured with GPS.",
        "Additional description 1 › Description type": "Methods",
        "Additional description 1 › Description language": "English",
        "Additional description 2 › Additional description": "Presented at the glacier workshop.",
        "Additional description 2 › Description type": "Other",
        "Additional description 2 › Description language": "",
        Licences: "Creative Commons Attribution 4.0 International | Custom terms",
        Copyright: "© 2024 The authors",
        // Recommended information
        "Contributor 1 › Given name": "Richard",
        "Contributor 1 › Family name": "Roe",
        "Contributor 1 › Role (required)": "Supervisor",
        Keywords: "glaciers",
        Subjects: "Calcimycin",
        Languages: "English | Danish",
        "Date 1 › Date": "2023-06-01/2023-08-31",
        "Date 1 › Date type": "Collected",
        "Date 1 › What the date is about": "Field season",
        Version: "v1.0",
        Publisher: "Cairn test repository",
        Sizes: "2 files\n1 GB",
        Formats: "text/csv",
        // Funding, identifiers, related works, references, locations
        "Funding 1 › Funder": "European Commission",
        "Funding 2 › Funder": "Local Trust",
        "Funding 2 › Award title": "Small grant",
        "Funding 2 › Award number": "LT-1",
        "Alternate identifier 1 › Identifier": "10.5281/zenodo.123",
        "Alternate identifier 1 › Scheme": "DOI",
        "Alternate identifier 2 › Identifier": "arXiv:1501.00001",
        "Alternate identifier 2 › Scheme": "arXiv",
        "Alternate identifier 3 › Identifier": "978-3-16-148410-0",
        "Alternate identifier 3 › Scheme": "ISBN",
        "Related work 1 › Relation (this upload …)": "Is cited by",
        "Related work 1 › Identifier of the related work": "10.1234/paper.1",
        "Related work 1 › Scheme": "DOI",
        "Related work 1 › Resource type of the related work": "Publication: Journal article",
        "Related work 2 › Relation (this upload …)": "Cites",
        "Related work 2 › Identifier of the related work": "https://example.org/data",
        "Related work 2 › Scheme": "URL",
        "Related work 2 › Resource type of the related work": "No resource type",
        "Reference 1 › Reference": "Doe J. (2020) Things.",
        "Reference 1 › Identifier of the reference (optional)": "0000000121032683",
        "Reference 1 › Scheme": "ISNI",
        "Location 1 › Place": "CERN",
        "Location 1 › About the place": "Main site",
        "Location 1 › Latitude (optional)": "46.23",
        "Location 1 › Longitude (optional)": "6.05",
        "Location 2 › Place": "Aletsch glacier",
        "Location 2 › Latitude (optional)": "",
        "Location 3 › Place": "Somewhere in the Alps",
        // Custom fields
        "Journal title": "Journal of Glaciology",
        Volume: "70",
        Issue: "3",
        "Journal pages": "101-120",
        ISSN: "0022-1430",
        "Book or report title": "Proceedings of Ice",
        ISBN: "978-3-16-148410-0",
        "Pages in the book": "1-10",
        "Place of publication": "Geneva",
        Edition: "2",
        "Conference title": "Glacier workshop",
        Acronym: "GW",
        "Conference dates": "1-3 May 2024",
        "Conference place": "Zermatt",
        Session: "A",
        "Part of the session": "1",
        "Conference website": "https://example.org/gw",
        "Awarding university": "University of Bern",
      });
      await expect(group(page, "Location 2").getByText("Its shape (a Polygon) is kept as it is").count()).resolves.toBe(1);

      await page.getByRole("button", { name: "Save draft" }).click();
      await page.getByText(/^Draft saved/).waitFor();
      const after = await draftOf(created.json.id);
      expect(after.metadata).toEqual(before.metadata);
      expect(after.custom_fields).toEqual(before.custom_fields);
      expect(after.access).toEqual(before.access);
      await person.close();
    }, 180_000);
  }
});

describe("a person fills every field", () => {
  // At both widths, each walk its own new upload (so the two records never meet).
  for (const width of WIDTHS)
    test(`by label, with the keyboard in the look-ups, and publishes; the record holds what they entered (${width} px)`, async () => {
      const { person, page } = await signedIn(width, "/uploads/new");
      await page.getByRole("group", { name: "Creator 1" }).waitFor();
      const row = (name: string) => group(page, name);
      const field = (scope: Page | Locator, label: string) => scope.getByLabel(label, { exact: true });

      // Basic information
      await field(page, "Resource type (required)").selectOption({ label: "Image: Other" });
      await field(page, "Title (required)").fill("Crevasses of the Aletsch glacier");
      await page.getByRole("button", { name: "Add a title in another language or a subtitle" }).click();
      await field(row("Additional title 1"), "Additional title").fill("Gletscherspalten");
      await field(row("Additional title 1"), "Title type").selectOption({ label: "Translated title" });
      await enterPick(field(row("Additional title 1"), "Title language"), "German", /^German/);
      await field(page, "Publication date (required)").fill("2024-06");
      await field(row("Creator 1"), "Given name").fill("Ada");
      await field(row("Creator 1"), "Family name").fill("Lovelace");
      await field(row("Creator 1"), "Role").selectOption({ label: "Project leader" });
      await enterPick(field(row("Creator 1"), "Affiliation"), "CERN", /^CERN/);
      await field(page, "Description").fill("Photographs of crevasses.");
      await page.getByRole("button", { name: "Add a description (methods, notes…)" }).click();
      await field(row("Additional description 1"), "Additional description").fill("Taken from a drone.");
      await field(row("Additional description 1"), "Description type").selectOption({ label: "Methods" });
      const licence = field(page, "Licence");
      await enterPick(licence, "CC BY 4.0", /\(cc-by-4\.0\)$/);
      // Typed text with no suggestion: Enter keeps nothing; the custom licence is a choice of its own.
      await licence.fill("Our own terms");
      await page.getByRole("button", { name: "Add a custom licence: “Our own terms”" }).waitFor();
      await licence.press("Enter");
      await expect(page.getByRole("list", { name: "Licences" }).textContent()).resolves.toBe("Creative Commons Attribution 4.0 International ×");
      await licence.fill("Our own terms");
      await page.getByRole("button", { name: "Add a custom licence: “Our own terms”" }).click();
      await field(page, "Copyright").fill("© 2024 Ada Lovelace");

      // Recommended information
      await page.getByRole("button", { name: "Add a contributor" }).click();
      await field(row("Contributor 1"), "Given name").fill("Richard");
      await field(row("Contributor 1"), "Family name").fill("Roe");
      await field(row("Contributor 1"), "Role (required)").selectOption({ label: "Supervisor" });
      await field(page, "Keywords").fill("crevasses, ice");
      await enterPick(field(page, "Subject"), "Calci", /^Calcimycin/);
      await enterPick(field(page, "Language"), "Danish", /^Danish/);
      await page.getByRole("button", { name: "Add a date (collected, valid, withdrawn…)" }).click();
      await field(row("Date 1"), "Date").fill("2023-06-01/2023-08-31");
      await field(row("Date 1"), "Date type").selectOption({ label: "Collected" });
      await field(row("Date 1"), "What the date is about").fill("Flights");
      await field(page, "Version").fill("v2");
      await field(page, "Publisher").fill("Glacier archive");
      await field(page, "Sizes").fill("120 photographs");
      await field(page, "Formats").fill("image/jpeg");

      // The folded parts
      await unfold(page, "Funding");
      await page.getByRole("button", { name: "Add funding" }).click();
      await enterPick(field(row("Funding 1"), "Funder"), "European", /^European Commission/);
      await unfold(page, "Alternate identifiers");
      await page.getByRole("button", { name: "Add an identifier" }).click();
      await field(row("Alternate identifier 1"), "Identifier").fill("10.5281/zenodo.999");
      // The scheme is detected as typed, by the server's own rules.
      await expect(field(row("Alternate identifier 1"), "Scheme").inputValue()).resolves.toBe("doi");
      await unfold(page, "Related works");
      await page.getByRole("button", { name: "Add a related work" }).click();
      await field(row("Related work 1"), "Relation (this upload …)").selectOption({ label: "Is supplement to" });
      await field(row("Related work 1"), "Identifier of the related work").fill("https://example.org/paper");
      await expect(field(row("Related work 1"), "Scheme").inputValue()).resolves.toBe("url");
      await field(row("Related work 1"), "Resource type of the related work").selectOption({ label: "Publication: Journal article" });
      await unfold(page, "References");
      await page.getByRole("button", { name: "Add a reference" }).click();
      await field(row("Reference 1"), "Reference").fill("Doe J. (2020) Ice.");
      await field(row("Reference 1"), "Identifier of the reference (optional)").fill("arXiv:1501.00001");
      await unfold(page, "Locations");
      await page.getByRole("button", { name: "Add a location" }).click();
      await field(row("Location 1"), "Place").fill("Konkordiaplatz");
      await field(row("Location 1"), "About the place").fill("Where the glaciers meet");
      await field(row("Location 1"), "Latitude (optional)").fill("46.5");
      await field(row("Location 1"), "Longitude (optional)").fill("8.05");
      await unfold(page, "Journal");
      await field(page, "Journal title").fill("Journal of Glaciology");
      await field(page, "Volume").fill("71");
      await unfold(page, "Imprint (book, report, chapter)");
      await field(page, "Place of publication").fill("Bern");
      await unfold(page, "Conference");
      await field(page, "Conference title").fill("Ice days");
      await field(page, "Conference website").fill("https://example.org/ice");
      await unfold(page, "Thesis");
      await field(page, "Awarding university").fill("University of Bern");
      await field(page, "Metadata-only record (no files)").check();
      expect(await seriousAxeViolations(page)).toEqual([]);
      // Every row filled, nothing wider than the screen (a phone's rows stack their fields).
      expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);

      await page.getByRole("button", { name: "Publish", exact: true }).first().click();
      await page.getByRole("dialog").getByRole("button", { name: "Publish", exact: true }).click();
      await page.waitForURL(/\/records\//);
      const id = new URL(page.url()).pathname.split("/").pop()!;
      const record = await app.call("GET", `/api/records/${id}`, { as: "alice" });
      expectStatus(record, 200);
      const m = record.json.metadata;
      expect(m).toMatchObject({
        resource_type: { id: "image-other" },
        title: "Crevasses of the Aletsch glacier",
        additional_titles: [{ title: "Gletscherspalten", type: { id: "translated-title" }, lang: { id: "deu" } }],
        publication_date: "2024-06",
        creators: [
          { person_or_org: { type: "personal", given_name: "Ada", family_name: "Lovelace" }, role: { id: "projectleader" }, affiliations: [{ id: "01ggx4157", name: "CERN" }] },
        ],
        description: "Photographs of crevasses.",
        additional_descriptions: [{ description: "Taken from a drone.", type: { id: "methods" } }],
        rights: [{ id: "cc-by-4.0" }, { title: { en: "Our own terms" } }],
        copyright: "© 2024 Ada Lovelace",
        contributors: [{ person_or_org: { given_name: "Richard", family_name: "Roe" }, role: { id: "supervisor" } }],
        subjects: [{ id: "https://id.nlm.nih.gov/mesh/D000001", subject: "Calcimycin" }, { subject: "crevasses" }, { subject: "ice" }],
        languages: [{ id: "dan" }],
        dates: [{ date: "2023-06-01/2023-08-31", type: { id: "collected" }, description: "Flights" }],
        version: "v2",
        publisher: "Glacier archive",
        sizes: ["120 photographs"],
        formats: ["image/jpeg"],
        funding: [{ funder: { id: "00k4n6c32", name: "European Commission" } }],
        identifiers: [{ identifier: "10.5281/zenodo.999", scheme: "doi" }],
        related_identifiers: [{ identifier: "https://example.org/paper", scheme: "url", relation_type: { id: "issupplementto" }, resource_type: { id: "publication-article" } }],
        references: [{ reference: "Doe J. (2020) Ice.", identifier: "arXiv:1501.00001", scheme: "arxiv" }],
        locations: { features: [{ place: "Konkordiaplatz", description: "Where the glaciers meet", geometry: { type: "Point", coordinates: [8.05, 46.5] } }] },
      });
      expect(m.rights[1]).toEqual({ title: { en: "Our own terms" } });
      expect(record.json.custom_fields).toEqual({
        "journal:journal": { title: "Journal of Glaciology", volume: "71" },
        "imprint:imprint": { place: "Bern" },
        "meeting:meeting": { title: "Ice days", url: "https://example.org/ice" },
        "thesis:university": "University of Bern",
      });
      await person.close();
    }, 300_000);
});

describe("the embargo", () => {
  for (const width of WIDTHS) {
    test(`its date and reason are out of sight and out of the keyboard's reach until it is ticked (${width} px)`, async () => {
      const { person, page } = await signedIn(width, "/uploads/new");
      const html = await (await page.goto("/uploads/new"))!.text();
      await page.getByRole("group", { name: "Creator 1" }).waitFor();
      await checkPage(page, html);
      const ticked = page.getByLabel("Embargo: make the record and files public on a date");
      await ticked.focus();
      await page.keyboard.press("Tab");
      const focused = () => page.evaluate<string>("document.activeElement?.id ?? ''");
      expect(["embargo-until", "embargo-reason"]).not.toContain(await focused());
      await expect(page.getByLabel("Embargo ends on").isVisible()).resolves.toBe(false);
      await ticked.check();
      await ticked.focus();
      await page.keyboard.press("Tab");
      await expect(focused()).resolves.toBe("embargo-until");
      await expect(page.getByLabel("Embargo ends on").getAttribute("type")).resolves.toBe("date");
      await expect(page.getByText("YYYY-MM-DD, YYYY-MM or YYYY (or a range A/B)").count()).resolves.toBe(1);
      await person.close();
    }, 120_000);
  }
});

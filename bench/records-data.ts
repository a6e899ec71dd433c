// The search benchmark's data: realistic published record documents (Zipf-like vocabulary with a
// long tail of rare terms, several languages, types and creators) and the search issue's query mix
// over them. One seeded PRNG feeds both, in the order used, so runs compare like with like.
import { createRandom } from "./lib";

export function createRecordsData(seed = 7) {
  const { rand, pick } = createRandom(seed);
  // Zipf-like: a few very common words, a long tail of rare ones.
  const VOCAB = [
    "data",
    "ocean",
    "temperature",
    "climate",
    "model",
    "analysis",
    "survey",
    "soil",
    "carbon",
    "genome",
    "protein",
    "river",
    "glacier",
    "coral",
    "forest",
    "urban",
    "health",
    "cohort",
    "language",
    "corpus",
    "archive",
    "images",
    "sensor",
    "network",
    "energy",
    "solar",
    "wind",
    "rainfall",
    "drought",
    "species",
    "biodiversity",
    "migration",
    "economy",
    "education",
    "history",
    "manuscript",
    "sequencing",
    "microbiome",
    "isotope",
    "sediment",
    "Meeresforschung",
    "Klimamodell",
    "données",
    "océan",
    "température",
    "océanographie",
    "datos",
    "clima",
    "気候",
    "海洋",
  ];
  const zipf = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(VOCAB.length * Math.pow(rand(), 2.2)))]!;
  const RARE = Array.from({ length: 5000 }, (_, i) => `term${i.toString(36)}x`);
  const TYPES: [string, string, string][] = [
    ["dataset", "dataset", "Dataset"],
    ["image-photo", "image", "Photo"],
    ["image-plot", "image", "Plot"],
    ["publication-article", "publication", "Journal article"],
    ["software", "software", "Software"],
    ["poster", "poster", "Poster"],
  ];
  const LANGS: [string, string][] = [
    ["eng", "English"],
    ["deu", "German"],
    ["fra", "French"],
    ["spa", "Spanish"],
    ["jpn", "Japanese"],
  ];
  const FAMILY = [
    "Lovelace",
    "Turing",
    "Hopper",
    "Curie",
    "Noether",
    "Franklin",
    "Meitner",
    "Bohr",
    "Wu",
    "Ramanujan",
    "Tanaka",
    "Obasanjo",
    "García",
    "Müller",
    "Kowalski",
    "Dubois",
  ];
  const GIVEN = ["Ada", "Alan", "Grace", "Marie", "Emmy", "Rosalind", "Lise", "Niels", "Wei", "Yuki", "Fatima", "José"];
  const sentence = (n: number) => Array.from({ length: n }, () => (rand() < 0.03 ? pick(RARE) : zipf())).join(" ");

  /** Record i's stored document; call in order of i (each call draws from the shared PRNG). */
  function document(i: number) {
    const [type, parent, typeTitle] = pick(TYPES);
    const [lang, langTitle] = pick(LANGS);
    const year = 2000 + Math.floor(rand() * 26);
    const date = `${year}-${String(1 + Math.floor(rand() * 12)).padStart(2, "0")}-${String(1 + Math.floor(rand() * 28)).padStart(2, "0")}`;
    const creators = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => {
      const [g, f] = [pick(GIVEN), pick(FAMILY)];
      return { person_or_org: { type: "personal", given_name: g, family_name: f, name: `${f}, ${g}`, identifiers: [] }, affiliations: [{ name: "University of Somewhere" }] };
    });
    const restricted = rand() < 0.05;
    return {
      access: { record: restricted ? "restricted" : "public", files: restricted ? "restricted" : "public", embargo: { active: false, until: null, reason: null } },
      files: { enabled: false, default_preview: null, order: [] },
      metadata: {
        resource_type: { id: type, title: { en: typeTitle }, props: { type: parent } },
        title: `${sentence(3 + Math.floor(rand() * 6))} ${i}`,
        publication_date: date,
        creators,
        publisher: "Cairn",
        description: `<p>${sentence(40 + Math.floor(rand() * 120))}</p>`,
        languages: [{ id: lang, title: { en: langTitle } }],
        subjects: [{ subject: zipf() }, { subject: zipf() }],
      },
      custom_fields: {},
      pids: {},
    };
  }

  /** `count` search URLs cycling through the mix: common and rare terms, phrases, fielded queries,
   * ranges, facets, sorts; every 7th asks for page 50. */
  function queryMix(count: number): string[] {
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const page = i % 7 === 0 ? "&page=50" : "";
      const q = [
        `q=${encodeURIComponent(VOCAB[i % 3]!)}`, // common terms
        `q=${encodeURIComponent(pick(RARE))}`, // rare
        `q=${encodeURIComponent(`"${zipf()} ${zipf()}"`)}`, // phrase
        `q=${encodeURIComponent(`metadata.title:${zipf()}`)}`,
        `q=${encodeURIComponent(`metadata.creators.person_or_org.name:"${pick(FAMILY)}"`)}`,
        `q=${encodeURIComponent(`metadata.publication_date:[${2000 + (i % 20)} TO ${2005 + (i % 20)}-06]`)}`,
        `q=${encodeURIComponent(`${zipf()} AND ${zipf()}`)}&sort=newest`,
        `resource_type=${encodeURIComponent(pick(TYPES)[1])}&language=${pick(LANGS)[0]}`,
        `sort=${pick(["newest", "oldest", "updated-desc", "mostviewed"])}`,
        `q=${encodeURIComponent(`${zipf()} OR ${pick(RARE)}`)}&resource_type=dataset`,
      ][i % 10]!;
      out.push(`/api/records?${q}${page}`);
    }
    return out;
  }
  return { document, queryMix };
}

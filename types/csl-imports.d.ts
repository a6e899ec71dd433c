// Text imports (`with { type: "text" }`) of the CSL styles in data/csl/ (locales are *.xml, typed by Bun).
declare module "*.csl" {
  const text: string;
  export default text;
}

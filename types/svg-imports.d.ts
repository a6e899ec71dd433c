// Text imports (`with { type: "text" }`) of SVG images embedded in the executable (the favicon).
declare module "*.svg" {
  const text: string;
  export default text;
}

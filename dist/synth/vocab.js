const FIRST_NAMES = [
  "Mira",
  "Tomas",
  "Elena",
  "Jonah",
  "Priya",
  "Kofi",
  "Lena",
  "Mateo",
  "Aiko",
  "Samir",
  "Greta",
  "Idris",
  "Noor",
  "Felix",
  "Ines",
  "Darius",
  "Hana",
  "Oskar",
  "Leila",
  "Ruben",
  "Yara",
  "Anton",
  "Zofia",
  "Emeka"
];
const LAST_NAMES = [
  "Okafor",
  "Lindqvist",
  "Marchetti",
  "Haddad",
  "Novak",
  "Reyes",
  "Tanaka",
  "Brennan",
  "Achebe",
  "Varga",
  "Castillo",
  "Moreau",
  "Petrov",
  "Nakamura",
  "Osei",
  "Kowalski",
  "Ferreira",
  "Halvorsen",
  "Duarte",
  "Iqbal"
];
const CITIES = [
  "Lisbon",
  "Nairobi",
  "Osaka",
  "Rotterdam",
  "Montreal",
  "Santiago",
  "Krakow",
  "Bangalore",
  "Tallinn",
  "Accra",
  "Porto Alegre",
  "Gothenburg",
  "Da Nang",
  "Cape Town",
  "Valencia",
  "Leeds"
];
const COUNTRIES = [
  "Carvania",
  "Veltria",
  "Ostmark",
  "Tessaly",
  "Orun",
  "Dessa",
  "Marlow Isles",
  "Kestria"
];
const NEWS_DOMAINS = [
  "dailyledger.example",
  "globewire.example",
  "northstar-news.example",
  "thecourier.example",
  "marketpulse.example",
  "civicreport.example",
  "techbeat.example",
  "harborpost.example"
];
const SECTORS = [
  "logistics",
  "semiconductors",
  "retail",
  "biotech",
  "energy",
  "software",
  "shipping",
  "agriculture"
];
const FILLER_COMPANIES = [
  "Pellas Robotics",
  "Arden Freight",
  "Kestrel Foods",
  "Solace Networks",
  "Meridian Mining",
  "Brook & Vale",
  "Orchid Analytics",
  "Granite Line Rail",
  "Vireo Pharma",
  "Copperfield Media"
];
function personName(rng) {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}
function fill(template, slots) {
  return template.replace(/\{(\w+)\}/g, (m, k) => slots[k] ?? m);
}
function slugify(title) {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
}
export {
  CITIES,
  COUNTRIES,
  FILLER_COMPANIES,
  FIRST_NAMES,
  LAST_NAMES,
  NEWS_DOMAINS,
  SECTORS,
  fill,
  personName,
  slugify
};
//# sourceMappingURL=vocab.js.map

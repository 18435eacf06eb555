function s(clause, noun, actor, person, place) {
  return { clause, noun, actor, person, place };
}
const BREAKOUT_SUBJECTS = [
  s(
    "the Central Bank of Carvania cut its policy rate",
    "a Carvanian rate cut",
    "the Central Bank of Carvania",
    "Governor Elena Marchetti",
    "Carvania"
  ),
  s(
    "Mira Okafor win the Eastland governorship primary",
    "an Okafor primary win",
    "the Okafor campaign",
    "Mira Okafor",
    "Eastland"
  ),
  s(
    "Norwood Dynamics complete its acquisition of Pellas Robotics",
    "the Norwood-Pellas merger",
    "Norwood Dynamics",
    "CEO Tomas Lindqvist",
    "Rotterdam"
  ),
  s(
    "the Veltrian parliament pass the Digital Markets Act",
    "the Digital Markets Act",
    "the Veltrian parliament",
    "Speaker Samir Haddad",
    "Veltria"
  ),
  s(
    "the Tessaly port strike end",
    "an end to the Tessaly port strike",
    "the Tessaly dockworkers' union",
    "union leader Kofi Osei",
    "Tessaly"
  ),
  s(
    "Halcyon Biosciences receive approval for HX-204",
    "HX-204 approval",
    "the Ostmark Medicines Agency",
    "Dr. Priya Iqbal",
    "Ostmark"
  ),
  s(
    "the Orun-Dessa ceasefire hold",
    "the Orun-Dessa ceasefire",
    "the Orun-Dessa joint commission",
    "envoy Lena Novak",
    "Orun"
  ),
  s(
    "Kestria join the Northern Customs Union",
    "Kestrian customs union membership",
    "the Kestrian government",
    "Prime Minister Anton Varga",
    "Kestria"
  )
];
const LONG_DATED_SUBJECTS = [
  s(
    "Tidewell Energy announce a new offshore wind project",
    "a Tidewell offshore wind project",
    "Tidewell Energy",
    "CFO Ines Duarte",
    "the Marlow Isles"
  ),
  s(
    "the Ostmark senate confirm Darius Ferreira as finance minister",
    "Ferreira's confirmation",
    "the Ostmark senate",
    "Darius Ferreira",
    "Ostmark"
  ),
  s(
    "Lumen Harbor Software announce a share buyback",
    "a Lumen Harbor buyback",
    "Lumen Harbor Software",
    "CEO Hana Tanaka",
    "Montreal"
  ),
  s(
    "Carvania and Veltria sign a fishing rights treaty",
    "the Carvania-Veltria fishing treaty",
    "the Carvanian foreign ministry",
    "Minister Ruben Castillo",
    "Carvania"
  ),
  s(
    "the Dessa electoral commission set a date for the snap election",
    "a Dessa snap election date",
    "the Dessa electoral commission",
    "Chair Yara Achebe",
    "Dessa"
  ),
  s(
    "Brightwater Retail close its flagship Valencia store",
    "the Valencia store closure",
    "Brightwater Retail",
    "CEO Oskar Halvorsen",
    "Valencia"
  ),
  s(
    "the Tessaly rail tunnel open to passenger traffic",
    "the Tessaly tunnel opening",
    "Tessaly Rail",
    "engineer Zofia Kowalski",
    "Tessaly"
  ),
  s(
    "Quarry Peak Semiconductor begin production at its Da Nang fab",
    "Da Nang fab production",
    "Quarry Peak Semiconductor",
    "COO Felix Moreau",
    "Da Nang"
  ),
  s(
    "the Veltrian supreme court rule on the data retention law",
    "a data retention ruling",
    "the Veltrian supreme court",
    "Justice Leila Petrov",
    "Veltria"
  ),
  s(
    "Kestria's inflation rate fall below 3 percent",
    "sub-3 percent Kestrian inflation",
    "the Kestrian statistics office",
    "economist Noor Haddad",
    "Kestria"
  ),
  s(
    "Arden Freight settle its antitrust case",
    "an Arden Freight settlement",
    "Arden Freight",
    "general counsel Mateo Reyes",
    "Leeds"
  ),
  s(
    "the Marlow Isles hold an independence referendum",
    "a Marlow Isles referendum",
    "the Marlow Isles assembly",
    "First Minister Aiko Nakamura",
    "the Marlow Isles"
  ),
  s(
    "Orun lift its grain export ban",
    "the end of the Orun grain export ban",
    "the Orun agriculture ministry",
    "Minister Emeka Osei",
    "Orun"
  ),
  s(
    "Solace Networks launch satellite broadband in Accra",
    "Solace satellite broadband",
    "Solace Networks",
    "CEO Greta Brennan",
    "Accra"
  ),
  s(
    "the Carvanian teachers' union accept the pay offer",
    "a Carvanian teachers' deal",
    "the Carvanian teachers' union",
    "union head Idris Varga",
    "Carvania"
  ),
  s(
    "Meridian Mining reopen the Santiago copper mine",
    "the Santiago mine reopening",
    "Meridian Mining",
    "CEO Jonah Novak",
    "Santiago"
  ),
  s(
    "Vireo Pharma publish phase 3 results for VR-11",
    "VR-11 phase 3 results",
    "Vireo Pharma",
    "Dr. Anton Lindqvist",
    "Gothenburg"
  ),
  s(
    "the Ostmark central bank raise its reserve requirement",
    "a higher Ostmark reserve requirement",
    "the Ostmark central bank",
    "Governor Samir Moreau",
    "Ostmark"
  ),
  s(
    "Granite Line Rail complete the Krakow extension",
    "the Krakow extension",
    "Granite Line Rail",
    "project lead Elena Tanaka",
    "Krakow"
  ),
  s(
    "Copperfield Media agree to sell its radio division",
    "the Copperfield radio sale",
    "Copperfield Media",
    "CEO Priya Castillo",
    "Tallinn"
  )
];
export {
  BREAKOUT_SUBJECTS,
  LONG_DATED_SUBJECTS
};
//# sourceMappingURL=market-subjects.js.map

"""The French glossary of unit, option and weapon names: data, one block per source.

``armydata.french.french_name`` composes a French name from these: a whole name first
(``WHOLE``), then the name's parts (``PATTERNS``: "Pintle-mounted MMG", "Replace X with Y",
"X (Late-War)"), each part a term (``TERMS``) or a designation kept as it is (``KEEP``, and any
word with a digit or in capitals: "M4", "SdKfz", "MMG"). A name with a word none of them knows
stays English: nothing is guessed.

Sources, named per block:
- FR_RULEBOOK: "Bolt Action FR – règles abrégées v2.1" (the French abridged rules players use,
  ../shared/seeds/004_…): weapon names (Fusil, Pistolet mitrailleur, Fusil d'assaut, Mitrailleuse
  légère/moyenne, Bazooka, Panzerfaust), vehicle classes (Char léger/moyen/lourd, Transport
  blindé, Véhicules non blindés), Équipe, Artillerie, qualities (inexpérimenté, régulier, vétéran).
- MUSTER_FR: the French names Muster's own generic catalogue, weapons chart and national rules
  already use (fixtures/src/catalogue_generic.py, v2.py, barracks_notes.py), so one term reads
  the same on every page.
- MILITARY_FR: standard French military terms (ranks, arms and equipment as the French army and
  French-language military history name them: sous-lieutenant, génie, semi-chenillé,
  automitrailleuse, affût, tourelle, caisse, obusier, canon antiaérien).
Lower case where a word is lower case mid-sentence; ``french_name`` capitalises the first letter.
"""

from __future__ import annotations

FR_RULEBOOK = "Bolt Action FR – règles abrégées v2.1 (French abridged rules)"
MUSTER_FR = "Muster's French catalogue, weapons chart and national rules"
MILITARY_FR = "Standard French military terms"

# Whole names (matched without case): what a name means as a whole, where word for word would
# read wrong. Checked before any pattern.
WHOLE: dict[str, dict[str, str]] = {
    FR_RULEBOOK: {
        "LMG": "mitrailleuse légère (LMG)",
        "SMG": "pistolet mitrailleur (SMG)",
        "BAR": "fusil automatique (BAR)",
        "Assault rifle": "fusil d'assaut",
        "Rifle": "fusil",
        "Pistol": "pistolet",
    },
    MUSTER_FR: {
        "Rifle Squad": "escouade de fusiliers",
        "Regular Infantry Squad": "escouade d'infanterie régulière",
        "Regular Infantry Section": "section d'infanterie régulière",
        "Inexperienced Infantry": "infanterie inexpérimentée",
        "Inexperienced Infantry Squad": "escouade d'infanterie inexpérimentée",
        "Inexperienced Infantry Section": "section d'infanterie inexpérimentée",
        "Veteran Infantry Squad": "escouade d'infanterie vétérane",
        "Veteran Infantry Section": "section d'infanterie vétérane",
        "Veteran Squad": "escouade vétérane",
        "Medic": "infirmier",
        "Spotter": "observateur",
        "Gun Shield": "bouclier",
        "Tough Fighters": "combattants aguerris",
        "Artillery Forward Observer": "observateur d'artillerie",
        "Green": "bleus",
        "Recce": "reconnaissance",
        "Shirker": "tire-au-flanc",
        "Shirkers": "tire-au-flanc",
        "Bangalore Torpedoes": "torpilles Bangalore",
        "Demolition Charges": "charges de démolition",
        "Remove 'Easily Catches Fire' rule": "sans la règle « Prend feu facilement »",
        "Replace transport capacity with Recce": "capacité de transport remplacée par Reconnaissance",
        "Free Unit": "unité gratuite",
    },
    MILITARY_FR: {
        "Captain": "capitaine",
        "Major": "commandant",
        "First Lieutenant": "lieutenant",
        "Second Lieutenant": "sous-lieutenant",
        "First (Senior) Lieutenant": "lieutenant (lieutenant-chef)",
        "Second (Junior) Lieutenant": "sous-lieutenant (lieutenant en second)",
        "First (Rikugun Chio) Lieutenant": "lieutenant (Rikugun Chio)",
        "Second (Rikugun Shoi) Lieutenant": "sous-lieutenant (Rikugun Shoi)",
        "Chaplain": "aumônier",
        "Commissar": "commissaire politique",
        "Frontnik Commissar": "commissaire politique Frontnik",
        "Field Ambulance": "ambulance",
        "Air Force Forward Observer": "observateur avancé de l'armée de l'air",
        "Sniper Detachment": "détachement de tireurs d'élite",
        "Engineer Squad": "escouade du génie",
        "Assault Engineer Squad": "escouade d'assaut du génie",
        "Assault Engineer": "sapeurs d'assaut",
        "French Engineer Section": "section du génie",
        "Royal Engineers Section": "section du génie (Royal Engineers)",
        "Reconnaissance Squad": "escouade de reconnaissance",
        "Scout Squad": "escouade d'éclaireurs",
        "Submachine Gun Squad": "escouade de pistolets mitrailleurs",
        "Light Machine Gun Squad": "escouade de mitrailleuses légères",
        "Anti-Tank Rifle Squad": "escouade de fusils antichars",
        "US LMG Section": "section de mitrailleuses légères US",
        "Tank Riders Squad": "escouade de fantassins portés sur chars",
        "Paratrooper Squad": "escouade de parachutistes",
        "Paratroopers Squad": "escouade de parachutistes",
        "Paratroop Section": "section de parachutistes",
        "Paratroopers": "parachutistes",
        "Glider Squad": "escouade aéroportée (planeurs)",
        "Guards Squad": "escouade de la Garde",
        "Ranger Squad": "escouade de Rangers",
        "US Marine Squad": "escouade de Marines US",
        "Commando Section": "section de commandos",
        "Chindit Section": "section de Chindits",
        "SAS Infantry Section": "section d'infanterie SAS",
        "People's Militia Squad": "escouade de milice populaire",
        "Heer Grenadier Squad": "escouade de grenadiers (Heer)",
        "Heer Veteran Grenadier Squad": "escouade de grenadiers vétérans (Heer)",
        "Heer Infantry Squad": "escouade d'infanterie (Heer)",
        "Heer Veteran Infantry Squad": "escouade d'infanterie vétérane (Heer)",
        "Heer Pioneer Squad": "escouade de pionniers (Heer)",
        "IJA Infantry Squad": "escouade d'infanterie IJA",
        "IJA Veteran Infantry Squad": "escouade d'infanterie vétérane IJA",
        "Waffen-SS Pioneers": "pionniers Waffen-SS",
        "Waffen-SS Wiking Panzergrenadier Squad": "escouade de Panzergrenadier Waffen-SS Wiking",
        "Bersaglieri Infantry Section": "section d'infanterie Bersaglieri",
        "Foreign Legion Veteran Infantry Section": "section d'infanterie vétérane de la Légion étrangère",
        "Senegalese Tirailleurs Infantry Section": "section de tirailleurs sénégalais",
        "San Marco (Marines) Infantry Section": "section d'infanterie San Marco (fusiliers marins)",
        "Blackshirt 'M' Battalion Squad": "escouade de Chemises noires (bataillon « M »)",
        "Guastatori Destruction Group": "groupe de destruction Guastatori",
        "Guastatori Support Group": "groupe d'appui Guastatori",
        "Savoia Cavalleria Squad": "escouade Savoia Cavalleria",
        "Armoured Jeep with Twin Bazookas": "jeep blindée avec bazookas jumelés",
        "Car / Light Utility Truck": "voiture / camionnette",
        "General Purpose Truck": "camion tous usages",
        "Tokarev 4M Quad Maxim on GAZ-AAA Truck": "quadruple Maxim Tokarev 4M sur camion GAZ-AAA",
        "LVT Amphibious Troop Transport": "transport de troupes amphibie LVT",
        "M16 Anti-Aircraft Carriage": "affût antiaérien M16",
        "M3 White Scout Car": "véhicule de reconnaissance M3 White",
        "Dual Purpose AA/AT Gun": "canon antiaérien et antichar",
        "Dual-Purpose AA Gun": "canon antiaérien à double usage",
        "Command Tank": "char de commandement",
        "Anti-aircraft mount": "affût antiaérien",
        "Loader": "chargeur",
        "Mountaineer": "chasseur alpin",
        "Stubborn": "tenaces",
        "Fanatic": "fanatique",
        "Fanatics": "fanatiques",
        "Bicycle": "bicyclette",
        "Motorcycle": "moto",
        "Ski": "skis",
        "Horse": "cheval",
        "Schürzen armour skirts": "jupes de blindage (Schürzen)",
        "SN-42 Body Armour": "cuirasse SN-42",
        "Upgrade the 2 forward-facing MMGs to HMGs": "les 2 MMG avant deviennent des HMG",
        "Crocodile variant": "version Crocodile",
        "Dodge ¾ Ton Truck": "camion Dodge ¾ tonne",
        "1½ Ton Truck": "camion de 1,5 tonne",
        "2½ Ton Truck": "camion de 2,5 tonnes",
        "Sturmpioniere (Assault Engineer) Squad": "escouade de Sturmpioniere (sapeurs d'assaut)",
        "2 Pintle-mounted MMGs (1 covering the rear and left arcs, and 1 covering the rear and right arcs)": (
            "2 MMG sur affût pivot (une couvrant les arcs arrière et gauche, une les arcs arrière et droit)"
        ),
        "Enclosed turret with two 20mm light automatic cannons": (
            "tourelle fermée avec deux canons automatiques légers de 20mm"
        ),
        "Type 2 twin AA cannon": "canon antiaérien jumelé Type 2",
        # Names of the community's Soviet 3rd-edition data (its spelling "Commisar" included), as
        # the French army and French military history name them.
        "Guard Squad": "escouade de la Garde",
        "Guards Rifle Squad": "escouade de fusiliers de la Garde",
        "Tank Rider Squad": "escouade de fantassins portés sur chars",
        "Commisar": "commissaire politique",
        "Extra Men": "hommes supplémentaires",
        "Platoon Commander": "chef de section",
        "Company Commander": "commandant de compagnie",
    },
}

# Terms a name is made of, in any position (matched without case).
TERMS: dict[str, dict[str, str]] = {
    FR_RULEBOOK: {
        "rifle": "fusil",
        "pistol": "pistolet",
        "assault rifle": "fusil d'assaut",
        "automatic rifle": "fusil automatique",
        "light machine gun": "mitrailleuse légère",
        "medium machine gun": "mitrailleuse moyenne",
        "machine gun": "mitrailleuse",
        "light tank": "char léger",
        "medium tank": "char moyen",
        "heavy tank": "char lourd",
        "team": "équipe",
        "artillery": "artillerie",
        "bazooka": "bazooka",
        "bazookas": "bazookas",
        "inexperienced": "inexpérimenté",
        "regular": "régulier",
        "veteran": "vétéran",
    },
    MUSTER_FR: {
        "sniper": "tireur d'élite",
        "sniper rifle": "fusil de précision",
        "anti-tank rifle": "fusil antichar",
        "anti-tank grenades": "grenades antichar",
        "flamethrower": "lance-flammes",
        "light mortar": "mortier léger",
        "medium mortar": "mortier moyen",
        "heavy mortar": "mortier lourd",
        "light howitzer": "obusier léger",
        "medium howitzer": "obusier moyen",
        "heavy howitzer": "obusier lourd",
        "light anti-tank gun": "canon antichar léger",
        "medium anti-tank gun": "canon antichar moyen",
        "heavy anti-tank gun": "canon antichar lourd",
        "anti-tank gun": "canon antichar",
        "at gun": "canon antichar",
        "light automatic cannon": "canon automatique léger",
        "heavy automatic cannon": "canon automatique lourd",
        "light autocannon": "canon automatique léger",
        "automatic cannon": "canon automatique",
        "quadruple light autocannon": "canon automatique léger quadruple",
        "grenade launcher": "lance-grenades",
        "vb launcher": "lance-grenades VB",
        "shotgun": "fusil de chasse",
        "truck": "camion",
        "half-track": "semi-chenillé",
        "light armoured car": "automitrailleuse légère",
        "heavy armoured car": "automitrailleuse lourde",
        "armoured car": "automitrailleuse",
        "forward observer": "observateur avancé",
        "medic": "infirmier",
        "spotter": "observateur",
        "pistol only": "pistolet seulement",
    },
    MILITARY_FR: {
        "light artillery": "artillerie légère",
        "medium artillery": "artillerie moyenne",
        "heavy artillery": "artillerie lourde",
        "field gun": "canon de campagne",
        "gun": "canon",
        "anti-aircraft gun": "canon antiaérien",
        "anti-aircraft truck": "camion antiaérien",
        "rocket launcher": "lance-roquettes",
        "tank destroyer": "chasseur de chars",
        "tankette": "chenillette",
        "carrier": "chenillette",
        "jeep": "jeep",
        "squad": "escouade",
        "section": "section",
        "flak half-track": "semi-chenillé Flak",
        "early war": "début de guerre",
        "early-war": "début de guerre",
        "late war": "fin de guerre",
        "late-war": "fin de guerre",
        "mid-war": "milieu de guerre",
        "early / mid-war": "début / milieu de guerre",
        "mid / late-war": "milieu / fin de guerre",
        "l5 series": "série L5",
        "soldier": "soldat",
        "submachine gun": "pistolet mitrailleur",
        "heavy machine gun": "mitrailleuse lourde",
        "men": "hommes",
        "man": "homme",
        "officer": "officier",
        "lieutenant": "lieutenant",
        "veterancy": "expérience",
        "weapons": "armes",
        "upgrades": "améliorations",
        "captain": "capitaine",
        "major": "commandant",
        "captain / major only": "capitaine / commandant seulement",
        "molotov cocktails": "cocktails Molotov",
        "mmgs": "MMG",
        "hmgs": "HMG",
        "2 mmgs": "2 MMG",
        "a light anti-tank gun": "un canon antichar léger",
        "co-axial mmg": "MMG coaxiale",
        "hull-mounted mmg": "MMG de caisse",
        "flamethrower and co-axial mmg": "lance-flammes et MMG coaxiale",
        "radio": "radio",
        "ammunition carrier version": "version transport de munitions",
        "vickers mmg carrier": "chenillette Vickers MMG",
        "left arc": "arc gauche",
        "right arc": "arc droit",
        "rear arc": "arc arrière",
        "left & rear arc": "arcs gauche et arrière",
        "right & rear arc": "arcs droit et arrière",
        "ausf g and h only": "Ausf G et H seulement",
        "four 20mm kwk 38": "quatre KwK 38 de 20mm",
    },
}

# Proper names and designations that French players use unchanged (vehicle and gun names,
# German, Italian, Japanese and Soviet unit names, weapon makes). Any word with a digit or
# written in capitals ("M4", "MMG", "NKVD") is kept too, without being listed.
KEEP_SOURCE = "Designations and proper names, used unchanged in French (the French rules keep Bazooka, Panzerfaust)"
_KEEP_WORDS = """
    Sherman Stuart Panther Tiger Churchill Cromwell Matilda Crusader Daimler Humber Hanomag Puma
    Marder Firefly Greyhound Wolverine Priest Bofors Hotchkiss Breda Solothurn Boys Katyusha
    Panzerwerfer Sturmhaubitze Semovente Elefantino Modello Kubelwagen Dodge Fiat Renault Eu
    Chenillette Kurogane Ha-Go Chi-Ha Shinhoto Type Panzer Ausf StuG SdKfz Flak PaK KwK Tokarev Maxim
    GAZ Bren Gewehr Volkssturm Jäger Fallschirmjäger Gebirgsjäger Panzergrenadier Kradschützen
    Zaichata Osttruppen Frontnik Spähtrupp Bersaglieri Fucilieri Guastatori Heer Waffen-SS Wiking
    Rikugan Rikugun Shoi Chio Shosa Taii Hauptmann Leutnant Oberleutnant Stalingrad Kai Char bis
    Panzerfaust Panzerschreck Panzerbüchse PIAT Sturmpistole Vickers Sturmpioniere
    Crocodile Sisu Model MIe Mle Jeep White
"""
KEEP: frozenset[str] = frozenset(word.casefold() for word in _KEEP_WORDS.split())

# Patterns a name is built on (regular expressions matched on the whole name, without case), and
# the French they make: ``{0}``, ``{1}``… are the groups, each translated in turn.
PATTERNS_SOURCE = MILITARY_FR
PATTERNS: tuple[tuple[str, str], ...] = (
    (r"(.+?): Replace (.+) with (.+)", "{0} : remplacer {1} par {2}"),
    (r"Replace (.+) with (.+)", "remplacer {0} par {1}"),
    (r"(.+?) - replace (?:the )?(.+) with (?:a )?(.+)", "{0} : remplacer {1} par {2}"),
    (r"(.+) - replaces (.+)", "{0} (remplace {1})"),
    (r"(.+) \(replaces (.+)\)", "{0} (remplace {1})"),
    (r"(.+) \(if no (.+) taken\)", "{0} (si pas de {1})"),
    (r"(.+) \((.+) only\)", "{0} ({1} seulement)"),
    (r"(.+) \((.+)\)", "{0} ({1})"),
    (r"(.+) covering the forward arc", "{0} couvrant l'arc avant"),
    (r"(.+) covering rear arc", "{0} couvrant l'arc arrière"),
    (r"(.+) with 360° arc(?: of(?: fire)?)?", "{0} avec arc de tir à 360°"),
    (r"(.+) and radio", "{0} et radio"),
    (r"(.+) / (.+)", "{0} / {1}"),
    (r"Additional (.+)", "{0} supplémentaire"),
    (r"Extra (.+)", "{0} supplémentaire"),
    (r"Rear facing (.+)", "{0} tirant vers l'arrière"),
    (r"Forward[- ]facing (.+)", "{0} tirant vers l'avant"),
    (r"Pintle-mounted (.+)", "{0} sur affût pivot"),
    (r"Turret-mounted (.+)", "{0} en tourelle"),
    (r"Platform-mounted (.+)", "{0} sur plateforme"),
    (r"(\d+) Pintle-mounted (.+)", "{0} {1} sur affût pivot"),
    (r"(.+) Team", "équipe de {0}"),
    (r"(.+) on (.+)", "{0} sur {1}"),
)

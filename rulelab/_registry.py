"""The datasets rulelab knows: where each comes from, how to read it, what is positive.

Each entry describes our copy of the file (name, sha256, size, label) and the public
source a user without that copy fetches it from. The files themselves are third-party
data and are never part of the project: see :mod:`rulelab.data` for how they are found.
"""

from __future__ import annotations

from dataclasses import dataclass, field

UCI = "Dua, D. and Graff, C. (2019). UCI Machine Learning Repository, University of California, Irvine"
LIBSVM = "Chang, C.-C. and Lin, C.-J. (2011). LIBSVM: a library for support vector machines (data sets page)"
LIBSVM_URL = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary/"


def numbered(prefix: str, start: int, stop: int) -> tuple[str, ...]:
    """Column names ``prefix{start}`` .. ``prefix{stop - 1}`` (LIBSVM-style files)."""
    return tuple(f"{prefix}{i}" for i in range(start, stop))


def platt_adult_labels() -> tuple[str, ...]:
    """Readable names of the 123 columns of LIBSVM's a1a..a9a (Platt's 1998 Adult binarisation).

    The files number their columns only. Platt's layout follows the attribute order of
    UCI's ``adult.names``: each quantitative attribute becomes a few quantile cells, named
    ``attribute=m/n`` as in the GRAB paper's Table 3 (cell m of n, larger m for larger
    values), and each categorical attribute one column per value, in ``adult.names``'
    value order. Our copy confirms the layout: every group is exactly one-hot (or all zero
    in 1,836 / 1,843 / 583 rows, Adult's counts of '?' in workclass, occupation and
    native-country); the value shares match Adult's (Private 69.7 %, Male 66.9 %,
    United-States 89.6 %, education-num 9 = HS-grad 32.3 %); and the quantile cells
    increase with the attribute (the share of never-married falls from 85 % in age cell 1
    to 7 % in cell 5; the share of incomes > 50K rises over the hours-per-week cells).
    """
    cells = {
        "age": 5,
        "fnlwgt": 5,
        "education-num": 5,
        "capital-gain": 2,
        "capital-loss": 2,
        "hours-per-week": 5,
    }
    values = {
        "workclass": "Private Self-emp-not-inc Self-emp-inc Federal-gov Local-gov State-gov "
        "Without-pay Never-worked",
        "education": "Bachelors Some-college 11th HS-grad Prof-school Assoc-acdm Assoc-voc 9th "
        "7th-8th 12th Masters 1st-4th 10th Doctorate 5th-6th Preschool",
        "marital-status": "Married-civ-spouse Divorced Never-married Separated Widowed "
        "Married-spouse-absent Married-AF-spouse",
        "occupation": "Tech-support Craft-repair Other-service Sales Exec-managerial "
        "Prof-specialty Handlers-cleaners Machine-op-inspct Adm-clerical "
        "Farming-fishing Transport-moving Priv-house-serv Protective-serv "
        "Armed-Forces",
        "relationship": "Wife Own-child Husband Not-in-family Other-relative Unmarried",
        "race": "White Asian-Pac-Islander Amer-Indian-Eskimo Other Black",
        "sex": "Female Male",
        "native-country": "United-States Cambodia England Puerto-Rico Canada Germany "
        "Outlying-US(Guam-USVI-etc) India Japan Greece South China Cuba Iran "
        "Honduras Philippines Italy Poland Jamaica Vietnam Mexico Portugal "
        "Ireland France Dominican-Republic Laos Ecuador Taiwan Haiti Columbia "
        "Hungary Guatemala Nicaragua Scotland Thailand Yugoslavia El-Salvador "
        "Trinadad&Tobago Peru Hong Holand-Netherlands",
    }
    order = [
        "age",
        "workclass",
        "fnlwgt",
        "education",
        "education-num",
        "marital-status",
        "occupation",
        "relationship",
        "race",
        "sex",
        "capital-gain",
        "capital-loss",
        "hours-per-week",
        "native-country",
    ]
    labels = []
    for attribute in order:
        if attribute in cells:
            n = cells[attribute]
            labels += [f"{attribute}={m}/{n}" for m in range(1, n + 1)]
        else:
            labels += [f"{attribute}={v}" for v in values[attribute].split()]
    return tuple(labels)


@dataclass(frozen=True)
class Source:
    """Where a user without our copy fetches the data, and how to turn it into our frame.

    kind is ``"openml"`` (``ref`` is the OpenML data id), ``"libsvm"`` (``ref`` is a URL of a
    LIBSVM sparse file) or ``"manual"`` (no stable machine-readable source: ``ref`` says
    where to get it). ``drop`` names source columns that our copy does not keep;
    ``label_map`` maps the source's label tokens to ours.
    """

    kind: str
    ref: str
    drop: tuple[str, ...] = ()
    label_map: dict | None = None


@dataclass(frozen=True)
class Dataset:
    name: str
    file: str
    label: str
    positive: tuple[str, ...]
    rows: int
    features: int
    positives: int
    sha256: str
    citation: str
    source: Source
    columns: tuple[str, ...]
    meta_columns: tuple[str, ...] = ()
    drop_labels: tuple[str, ...] = ()
    note: str = ""
    categorical: tuple[str, ...] = field(default=())
    labels: tuple[str, ...] = ()  # readable column names where the file only numbers them


_D = Dataset
DATASETS: dict[str, Dataset] = {
    d.name: d
    for d in [
        _D(
            "ilpd",
            "ilpd.csv",
            "Selector",
            ("1",),
            583,
            10,
            416,
            "c44a521651262208749429b81d37042a65fc1d60d2892eb60342c44c0ca8a22e",
            f"Ramana & Venkateswarlu (2012), ILPD (Indian Liver Patient Dataset). {UCI}. CC BY 4.0.",
            Source("openml", "1480", label_map={"1": "1", "2": "2"}),
            ("Age", "Gender", "TB", "DB", "Alkphos", "Sgpt", "Sgot", "TP", "ALB", "AG_Ratio"),
            categorical=("Gender",),
            note="AG_Ratio is missing in 4 rows.",
        ),
        _D(
            "ionosphere",
            "ionosphere.csv",
            "y",
            ("g",),
            351,
            34,
            225,
            "76ce449164129994ea9e3f829cd48cc875a291bd5bb2663f0e4dc91a2c6ee196",
            f"Sigillito et al. (1989), Ionosphere. {UCI}. CC BY 4.0.",
            Source("openml", "59", label_map={"g": "g", "b": "b"}),
            numbered("f", 0, 34),
            note="f1 is constant (all 0).",
        ),
        _D(
            "bupa",
            "bupa.csv",
            "selector",
            ("2",),
            345,
            6,
            200,
            "ab7c9f801a6fc0568605bda3796a3962d0b940a19ced4060fb1e2ff98438b5cc",
            f"BUPA Medical Research Ltd., Liver Disorders. {UCI}. CC BY 4.0.",
            Source("openml", "8"),
            ("mcv", "alkphos", "sgpt", "sgot", "gammagt", "drinks"),
            note="'selector' was meant as a train/test split (McDermott & Forsyth 2016); "
            "the papers use it as the label, positive = 2.",
        ),
        _D(
            "parkinsons",
            "parkinsons.csv",
            "status",
            ("1",),
            195,
            22,
            147,
            "b3780178a017275b45b84e979dba2ded9b007c8c804744d70966e756a81b8b1d",
            f"Little et al. (2007), BioMedical Engineering OnLine 6:23, Parkinsons. {UCI}. CC BY 4.0.",
            Source("openml", "1488", label_map={"1": "0", "2": "1"}),
            (
                "MDVP:Fo(Hz)",
                "MDVP:Fhi(Hz)",
                "MDVP:Flo(Hz)",
                "MDVP:Jitter",
                "MDVP:Jitter(Abs)",
                "MDVP:RAP",
                "MDVP:PPQ",
                "Jitter:DDP",
                "MDVP:Shimmer",
                "MDVP:Shimmer(dB)",
                "Shimmer:APQ3",
                "Shimmer:APQ5",
                "MDVP:APQ",
                "Shimmer:DDA",
                "NHR",
                "HNR",
                "RPDE",
                "DFA",
                "spread1",
                "spread2",
                "D2",
                "PPE",
            ),
        ),
        _D(
            "pima",
            "pima.csv",
            "class",
            ("1",),
            768,
            8,
            268,
            "3ac5ff30689316235bdba2440081938b58329fc35fce7112554d3a3bc79df617",
            "Smith et al. (1988), Pima Indians Diabetes (NIDDK); formerly UCI.",
            Source("openml", "37", label_map={"tested_positive": "1", "tested_negative": "0"}),
            (
                "pregnant",
                "glucose",
                "blood_pressure",
                "skin_thickness",
                "insulin",
                "bmi",
                "pedigree",
                "age",
            ),
            note="Zeros in glucose, blood_pressure, skin_thickness, insulin and bmi are "
            "undeclared missing values (kept as 0, as in the papers).",
        ),
        _D(
            "sonar",
            "sonar.csv",
            "y",
            ("M",),
            208,
            60,
            111,
            "3924e4a3fa6ac57aa696cabb53047f0cd179d7f974c7985fad5d977baa053773",
            f"Gorman & Sejnowski (1988), Connectionist Bench (Sonar, Mines vs. Rocks). {UCI}. CC BY 4.0.",
            Source("openml", "40", label_map={"Mine": "M", "Rock": "R"}),
            numbered("f", 0, 60),
        ),
        _D(
            "transfusion",
            "transfusion.csv",
            "donated_march_2007",
            ("1",),
            748,
            4,
            178,
            "192bc0f295ecf9185b9eaee0846e624e1d6e7352cffaa9903dd8c3b666bb0b6c",
            f"Yeh, Yang & Ting (2009), Blood Transfusion Service Center. {UCI}. CC BY 4.0.",
            Source("openml", "1464", label_map={"1": "0", "2": "1"}),
            ("recency_months", "frequency_times", "monetary_cc_blood", "time_months"),
        ),
        _D(
            "wdbc",
            "wdbc.csv",
            "diagnosis",
            ("M",),
            569,
            30,
            212,
            "e625156c38943b03f749477157b8c1e3aa0e564c4b4705abeadfdc4ace9e2acf",
            f"Street, Wolberg & Mangasarian (1993), Breast Cancer Wisconsin (Diagnostic). {UCI}. CC BY 4.0.",
            Source("openml", "1510", label_map={"1": "B", "2": "M"}),
            tuple(
                f"{f}_{s}"
                for s in ("mean", "se", "worst")
                for f in (
                    "radius",
                    "texture",
                    "perimeter",
                    "area",
                    "smoothness",
                    "compactness",
                    "concavity",
                    "concave_points",
                    "symmetry",
                    "fractal_dimension",
                )
            ),
        ),
        _D(
            "magic",
            "magic.csv.gz",
            "class",
            ("g",),
            19020,
            10,
            12332,
            "1209f64a3ef705bc72765d9d37c907b5f2d7a28ab7ae3b45469de766804be18f",
            f"Bock et al. (2004), MAGIC Gamma Telescope. {UCI}. CC BY 4.0.",
            Source("openml", "1120"),
            (
                "fLength",
                "fWidth",
                "fSize",
                "fConc",
                "fConc1",
                "fAsym",
                "fM3Long",
                "fM3Trans",
                "fAlpha",
                "fDist",
            ),
        ),
        _D(
            "musk2",
            "musk2.csv.gz",
            "class",
            ("1",),
            6598,
            166,
            1017,
            "f08dfa7f9c4a8c48ac02a35eb75dbcc4e4484f222ef3f8ed3d2536909cf6c999",
            f"Dietterich, Lathrop & Lozano-Perez (1997), Musk (Version 2). {UCI}. CC BY 4.0.",
            Source("openml", "1116", drop=("molecule_name", "conformation_name")),
            numbered("f", 1, 167),
            meta_columns=("molecule_id",),
            note="molecule_id (1..102) identifies the bag: use it for grouped splits, not as a feature.",
        ),
        _D(
            "banknote",
            "banknote.csv",
            "class",
            ("1",),
            1372,
            4,
            610,
            "a4e6eb57f00dc0c5696badf6553001e8871644b5b98ab1b2869054af1d255125",
            f"Lohweg (2013), Banknote Authentication. {UCI}. CC BY 4.0.",
            Source("openml", "1462", label_map={"1": "0", "2": "1"}),
            ("variance", "skewness", "curtosis", "entropy"),
        ),
        _D(
            "gas_drift_partial",
            "gas_drift_partial.csv.gz",
            "class",
            ("1", "2", "3"),
            6697,
            128,
            3661,
            "1fabbb6fe4e0eb9e9ad4f9ef3d1bd0b72eb364c597b5b7f63054ce2141ee24b4",
            f"Vergara et al. (2012), Sensors and Actuators B 166; Rodriguez-Lujan et al. (2014). "
            f"Gas Sensor Array Drift Dataset at Different Concentrations. {UCI}. CC BY 4.0.",
            Source("manual", "https://archive.ics.uci.edu/dataset/270 (batches 1-6, 8, 9 as CSV)"),
            numbered("f", 1, 129),
            meta_columns=("batch", "concentration"),
            note="PARTIAL: batches 7 and 10 are missing (6,697 of 13,910 rows). Six gases "
            "(1 Ethanol, 2 Ethylene, 3 Ammonia, 4 Acetaldehyde, 5 Acetone, 6 Toluene); "
            "the default binary split is gases 1-3 vs 4-6 (pass positive= to change it).",
        ),
        _D(
            "a1a_train",
            "a1a_train.csv",
            "y",
            ("1",),
            1605,
            123,
            395,
            "b262f8bfe71f40a53a7941a364fb7b5573d5d72a1019a3ae438ab32d15f33936",
            f"Platt (1998) binarisation of Adult (Kohavi 1996). {LIBSVM}.",
            Source("libsvm", LIBSVM_URL + "a1a"),
            numbered("f", 1, 124),
            labels=platt_adult_labels(),
        ),
        _D(
            "a1a_test",
            "a1a_test.csv.gz",
            "y",
            ("1",),
            30956,
            123,
            7446,
            "c5d5bcfa22177a0642b0639f8300f045eb3601c4c7d3f50fd487aa5776e19d76",
            f"Platt (1998) binarisation of Adult (Kohavi 1996). {LIBSVM}.",
            Source("libsvm", LIBSVM_URL + "a1a.t"),
            numbered("f", 1, 124),
            labels=platt_adult_labels(),
        ),
        _D(
            "phishing",
            "phishing.csv",
            "result",
            ("1",),
            11055,
            30,
            6157,
            "dbdee9d3dc8c5fcf3ca949bb05a1805b52f2207eeb28b19a6743b7dd6ef6250d",
            f"Mohammad, Thabtah & McCluskey (2012), Phishing Websites. {UCI}. CC BY 4.0.",
            Source("openml", "4534"),
            (
                "having_ip_address",
                "url_length",
                "shortining_service",
                "having_at_symbol",
                "double_slash_redirecting",
                "prefix_suffix",
                "having_sub_domain",
                "sslfinal_state",
                "domain_registeration_length",
                "favicon",
                "port",
                "https_token",
                "request_url",
                "url_of_anchor",
                "links_in_tags",
                "sfh",
                "submitting_to_email",
                "abnormal_url",
                "redirect",
                "on_mouseover",
                "rightclick",
                "popupwidnow",
                "iframe",
                "age_of_domain",
                "dnsrecord",
                "web_traffic",
                "page_rank",
                "google_index",
                "links_pointing_to_page",
                "statistical_report",
            ),
            note="Original -1/0/1 codes; LIBSVM's 68-feature 'phishing' is their one-hot expansion.",
        ),
        _D(
            "fourclass_scale",
            "fourclass_scale.csv",
            "y",
            ("1",),
            862,
            2,
            307,
            "6033454b0f23a15a3836862509afada76583bb4b4de03ef7d2c5d4120d52caad",
            f"Ho & Kleinberg (1996), fourclass (scaled to [-1, 1]). {LIBSVM}.",
            Source("libsvm", LIBSVM_URL + "fourclass_scale"),
            numbered("f", 1, 3),
        ),
        _D(
            "german_numer",
            "german_numer.csv",
            "y",
            ("2",),
            1000,
            24,
            300,
            "51e05cb2d0c04753d38e5affaae3f0e3994230ad083dc9edb70d92799f269b68",
            f"Hofmann (1994), Statlog German Credit (german.data-numeric). {UCI}. CC BY 4.0.",
            Source("manual", "https://archive.ics.uci.edu/dataset/144 (german.data-numeric)"),
            numbered("f", 1, 25),
            note="Positive = 2 (bad credit), LIBSVM's +1.",
        ),
        _D(
            "madelon_train",
            "madelon_train.csv.gz",
            "y",
            ("1",),
            2000,
            500,
            1000,
            "689b89ecfdca041c77823e12abffb0f5b374b606796d29aabe77e9fbca863629",
            f"Guyon et al. (2004), NIPS 2003 feature selection challenge, Madelon. {UCI}. CC BY 4.0.",
            Source("libsvm", LIBSVM_URL + "madelon"),
            numbered("f", 1, 501),
        ),
        _D(
            "madelon_test",
            "madelon_test.csv.gz",
            "y",
            ("1",),
            600,
            500,
            300,
            "d2641bd52c7dfb7ff89fc3ccf0dae4ff8db17dcfde3329f3cc655f4fdfbc63d2",
            f"Guyon et al. (2004), NIPS 2003 feature selection challenge, Madelon. {UCI}. CC BY 4.0.",
            Source("libsvm", LIBSVM_URL + "madelon.t"),
            numbered("f", 1, 501),
        ),
        _D(
            "ijcnn1_train",
            "ijcnn1_train.csv.gz",
            "y",
            ("1",),
            49990,
            22,
            4853,
            "c56ed1c7242d03cc965bd48447e05c053c5e3f73bb24f376bb3a54c1e3277d6c",
            f"Prokhorov (2001), IJCNN 2001 challenge (transformation of Chang & Lin 2001). {LIBSVM}.",
            Source("libsvm", LIBSVM_URL + "ijcnn1.bz2"),
            numbered("f", 1, 23),
            note="train + validation of the challenge.",
        ),
        _D(
            "ijcnn1_test",
            "ijcnn1_test.csv.gz",
            "y",
            ("1",),
            91701,
            22,
            8712,
            "3262bb3bb0f5ac205713c8cc980690acc39d80d30ee150ee89566451a8c0a5bf",
            f"Prokhorov (2001), IJCNN 2001 challenge (transformation of Chang & Lin 2001). {LIBSVM}.",
            Source("libsvm", LIBSVM_URL + "ijcnn1.t.bz2"),
            numbered("f", 1, 23),
        ),
        _D(
            "semeval2017_task4a",
            "semeval2017_task4a.csv.gz",
            "label",
            ("positive",),
            61854,
            1,
            22020,
            "1dae7f05e3d56b9c5d6d287f82b87629d09a4331550227f358b9f9ad84cbde8e",
            "Rosenthal, Farra & Nakov (2017), SemEval-2017 Task 4: Sentiment Analysis in Twitter "
            "(subtask A, English); tweets hydrated by the DataStories team (Baziotis et al. 2017).",
            Source(
                "manual",
                "https://github.com/cbaziotis/datastories-semeval2017-task4 "
                "(dataset/Subtask_A): columns id, split, source, text, label",
            ),
            ("text",),
            meta_columns=("id", "split", "source"),
            drop_labels=("neutral",),
            note="Neutral tweets are dropped (positive vs negative). Tweet texts follow "
            "Twitter's terms (research use).",
        ),
        _D(
            "sentiment_labelled_sentences",
            "sentiment_labelled_sentences.csv",
            "label",
            ("1",),
            3000,
            1,
            1500,
            "71fb98b4bed42255c214574710f6932ab2e75fd6bfe442a48ca0cb9e8f883f24",
            f"Kotzias et al. (2015), From Group to Individual Labels using Deep Features, KDD. {UCI}. CC BY 4.0.",
            Source(
                "manual",
                "https://archive.ics.uci.edu/dataset/331 (the three *_labelled.txt "
                "files as CSV with columns source, text, label)",
            ),
            ("text",),
            meta_columns=("source",),
        ),
    ]
}
# LIBSVM's "diabetes" is the Pima file with the class relabelled to -1/+1.
DATASETS["diabetes_libsvm"] = DATASETS["pima"].__class__(
    **{
        **DATASETS["pima"].__dict__,
        "name": "diabetes_libsvm",
        "note": "LIBSVM 'diabetes' is this Pima file with the class relabelled to -1/+1.",
    }
)

ALIASES = {
    "liver": "bupa",
    "ionos": "ionosphere",
    "parkin": "parkinsons",
    "trans": "transfusion",
    "musk": "musk2",
    "gas": "gas_drift_partial",
    "diabetes": "pima",
    "a1a": "a1a_train",
    "ijcnn1": "ijcnn1_train",
    "madelon": "madelon_train",
    "german": "german_numer",
    "fourclass": "fourclass_scale",
    "semeval": "semeval2017_task4a",
}
